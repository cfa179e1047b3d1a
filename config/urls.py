from django.contrib import admin
from django.urls import include, path

from games.web import views

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    # The header's language menu, which also sets a signed-in reader's profile (Django's own view otherwise).
    path("i18n/setlang/", views.set_language, name="set_language"),
    path("", include("games.urls")),
]
