from django.urls import path

from games.web import leaderboard, players, push_views, replay, unsubscribe, views
from games.web import vacations as vacation_views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("how-to-play/", views.how_to_play_index, name="how_to_play_index"),
    path("how-to-play/<slug:slug>/", views.how_to_play, name="how_to_play"),
    path("how-to-play/police_alarm/driving-school/", views.driving_school, name="driving_school"),
    path("profile/", views.profile, name="profile"),
    path("push/subscribe/", push_views.subscribe, name="push_subscribe"),
    path("push/unsubscribe/", push_views.unsubscribe, name="push_unsubscribe"),
    path("push/status/", push_views.status, name="push_status"),
    path("sw.js", push_views.service_worker, name="service_worker"),
    path("notifications/unsubscribe/<str:token>/", unsubscribe.unsubscribe, name="notify_unsubscribe"),
    path("profile/vacation/", vacation_views.vacation, name="profile_vacation"),
    path("u/<str:username>/", players.player_page, name="player"),
    path("matches/", players.my_matches, name="my_matches"),
    path("leaderboard/", leaderboard.leaderboard, name="leaderboard_index"),
    path("leaderboard/<slug:game>/", leaderboard.leaderboard, name="leaderboard"),
    path("matches/new/", views.match_create, name="match_create"),
    path("invite/<str:code>/", views.match_invite, name="match_invite"),
    path("m/<int:match_id>/", views.match_page, name="match"),
    path("m/<int:match_id>/join/", views.match_lobby_action, {"action": "join"}, name="match_join"),
    path("m/<int:match_id>/leave/", views.match_lobby_action, {"action": "leave"}, name="match_leave"),
    path("m/<int:match_id>/cancel/", views.match_cancel, name="match_cancel"),
    path("m/<int:match_id>/bot/", views.match_lobby_action, {"action": "bot"}, name="match_add_bot"),
    path("m/<int:match_id>/start/", views.match_lobby_action, {"action": "start"}, name="match_start"),
    path("m/<int:match_id>/action/", views.match_action, name="match_action"),
    path("m/<int:match_id>/chat/", views.match_chat, name="match_chat"),
    path("m/<int:match_id>/resign/", views.match_resign, name="match_resign"),
    path("m/<int:match_id>/replay/", replay.match_replay, name="match_replay"),
    path("m/<int:match_id>/record.json", replay.match_export, name="match_export"),
    path("m/<int:match_id>/rematch/", views.match_rematch, name="match_rematch"),
    path("m/<int:match_id>/rematch/answer/", views.match_rematch_answer, name="match_rematch_answer"),
]
