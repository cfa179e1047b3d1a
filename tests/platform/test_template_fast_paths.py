"""A constant ``{% translate %}`` is translated once per language (games.runtime.template_fast_paths)."""

from __future__ import annotations

import json

import pytest
from django.template import Context, Engine, Template
from django.templatetags.i18n import BlockTranslateNode, TranslateNode
from django.utils import translation

from games.runtime import template_fast_paths


def _nodes(source: str) -> list[TranslateNode]:
    engine = Engine(libraries={"i18n": "django.templatetags.i18n"})
    template = engine.from_string("{% load i18n %}" + source)
    return [node for node in template.nodelist.get_nodes_by_type(TranslateNode) if isinstance(node, TranslateNode)]


def test_the_site_renders_with_both_fast_paths() -> None:
    from django.template import base

    assert TranslateNode.render is template_fast_paths.render
    assert BlockTranslateNode.render is template_fast_paths.block_render
    assert base.render_value_in_context is template_fast_paths.render_value_in_context
    template_fast_paths.install()  # twice changes nothing
    assert template_fast_paths._django_value is not template_fast_paths.render_value_in_context


@pytest.mark.parametrize("autoescape", [True, False])
@pytest.mark.parametrize("use_l10n", [True, False, None])
def test_a_value_renders_as_django_renders_it(autoescape: bool, use_l10n: bool | None) -> None:
    import datetime
    from decimal import Decimal

    from django.utils.safestring import SafeString, mark_safe
    from django.utils.translation import gettext_lazy

    values = [
        "plain",
        '<b>Tom & "Jerry"</b> it\'s',
        "",
        mark_safe("<em>kept</em> & as it is"),
        1200,
        True,
        3.5,
        Decimal("1.50"),
        None,
        datetime.date(2026, 11, 27),
        gettext_lazy("Speed"),
        ["a", "<b>"],
    ]
    for language in ("en", "zh-hant"):
        with translation.override(language):
            context = Context(autoescape=autoescape, use_l10n=use_l10n)
            for value in values:
                ours = template_fast_paths.render_value_in_context(value, context)
                django = template_fast_paths._django_value(value, context)
                assert ours == django, (value, autoescape, use_l10n)
                assert isinstance(ours, SafeString) == isinstance(django, SafeString), value


@pytest.mark.parametrize("autoescape", [True, False])
def test_a_constant_text_reads_as_djangos_in_each_language_and_is_translated_once_per_language(
    monkeypatch: pytest.MonkeyPatch, autoescape: bool
) -> None:
    calls: list[str | None] = []
    real = template_fast_paths._django_render

    def counted(node: TranslateNode, context: Context) -> str:
        calls.append(translation.get_language())
        return real(node, context)

    monkeypatch.setattr(template_fast_paths, "_django_render", counted)
    (node,) = _nodes('{% translate "Speed" %}')
    seen = {}
    for language in ("en", "zh-hant", "en", "zh-hant", "zh-hant"):
        with translation.override(language):
            context = Context(autoescape=autoescape)
            seen[language] = node.render(context)
            assert seen[language] == real(node, context)
    assert seen == {"en": "Speed", "zh-hant": "車速"}
    assert calls == ["en", "zh-hant"], "each language's words looked up once, then kept"


@pytest.mark.parametrize(
    "source",
    [
        '{% translate "Speed" noop %}',
        '{% translate "Speed" as label %}[{{ label }}]',
        '{% translate "Speed" context "gauge" %}',
        "{% translate word %}",
        '{% translate "Speed"|lower %}',
    ],
)
def test_every_other_form_renders_as_django_renders_it(monkeypatch: pytest.MonkeyPatch, source: str) -> None:
    engine = Engine(libraries={"i18n": "django.templatetags.i18n"})
    template = engine.from_string("{% load i18n %}" + source)
    (node,) = [node for node in template.nodelist.get_nodes_by_type(TranslateNode) if isinstance(node, TranslateNode)]
    renders = []
    for language, word in (("en", "Durability"), ("zh-hant", "Durability"), ("zh-hant", "Speed")):
        with translation.override(language):
            renders.append(template.render(Context({"word": word})))
    assert template_fast_paths._KEPT not in node.__dict__
    monkeypatch.setattr(TranslateNode, "render", template_fast_paths._django_render)
    for (language, word), kept in zip(
        (("en", "Durability"), ("zh-hant", "Durability"), ("zh-hant", "Speed")), renders, strict=True
    ):
        with translation.override(language):
            assert template.render(Context({"word": word})) == kept
    assert "耐久度" in renders[1] or "translate word" not in source


BLOCK_SOURCES = [
    "{% blocktranslate with n=round %}Round {{ n }}{% endblocktranslate %}",
    "{% blocktranslate count n=steps %}{{ n }} step left{% plural %}{{ n }} steps left{% endblocktranslate %}",
    "{% blocktranslate with name=who %}<strong>{{ name }}</strong> is choosing a car.{% endblocktranslate %}",
    "{% blocktranslate with name=who|upper %}{{ name }}'s dice{% endblocktranslate %}",
    "{% blocktranslate %}{{ who }}'s dice{% endblocktranslate %}",
    "{% blocktranslate with name=nobody %}{{ name }}'s dice{% endblocktranslate %}",
    "{% blocktranslate trimmed with n=round %}\n  Round\n  {{ n }}\n{% endblocktranslate %}",
    "{% blocktranslate with n=round %}100% of round {{ n }}{% endblocktranslate %}",
    "{% blocktranslate count n=steps with name=who %}{{ name }}: {{ n }} step{% plural %}{{ name }}: {{ n }} steps"
    "{% endblocktranslate %}",
    "{% blocktranslate count n=steps context 'drive' %}{{ n }} step left{% plural %}{{ n }} steps left"
    "{% endblocktranslate %}",
    "{% blocktranslate with n=round asvar line %}Round {{ n }}{% endblocktranslate %}[{{ line }}]",
]


def _block_template(source: str, string_if_invalid: str = "") -> Template:
    engine = Engine(libraries={"i18n": "django.templatetags.i18n"}, string_if_invalid=string_if_invalid)
    return engine.from_string("{% load i18n %}" + source)


@pytest.mark.parametrize("source", BLOCK_SOURCES)
@pytest.mark.parametrize("string_if_invalid", ["", "[%s missing]"])
def test_a_blocktranslate_renders_as_djangos_in_each_language(
    monkeypatch: pytest.MonkeyPatch, source: str, string_if_invalid: str
) -> None:
    template = _block_template(source, string_if_invalid)
    values = [
        {"round": 3, "steps": 1, "who": "Tom & <Jerry>"},
        {"round": 4, "steps": 2, "who": "阿明"},
        {"round": 3, "steps": 0, "who": "Tom & <Jerry>"},
        {"round": 5, "steps": 1.5, "who": ""},
    ]
    ours: list[str] = []
    for language in ("en", "zh-hant", "en", "zh-hant"):
        with translation.override(language):
            for autoescape in (True, False):
                ours.extend(template.render(Context(v, autoescape=autoescape)) for v in values)
    monkeypatch.setattr(BlockTranslateNode, "render", template_fast_paths._django_block_render)
    djangos: list[str] = []
    for language in ("en", "zh-hant", "en", "zh-hant"):
        with translation.override(language):
            for autoescape in (True, False):
                djangos.extend(template.render(Context(v, autoescape=autoescape)) for v in values)
    assert ours == djangos
    if "Round" in source and "trimmed" not in source and "100%" not in source:
        assert any("第 3 輪" in text or "第3輪" in text for text in ours), "the zh-hant words are used"


def test_a_blocktranslate_message_is_looked_up_once_per_language_and_count(monkeypatch: pytest.MonkeyPatch) -> None:
    looked_up: list[tuple[str | None, str]] = []
    real_gettext, real_ngettext = translation.gettext, translation.ngettext

    def gettext(message: str) -> str:
        looked_up.append((translation.get_language(), message))
        return real_gettext(message)

    def ngettext(singular: str, plural: str, count: int) -> str:
        looked_up.append((translation.get_language(), f"{singular}|{count}"))
        return real_ngettext(singular, plural, count)

    monkeypatch.setattr(template_fast_paths.translation, "gettext", gettext)
    monkeypatch.setattr(template_fast_paths.translation, "ngettext", ngettext)
    template = _block_template(BLOCK_SOURCES[0] + BLOCK_SOURCES[1])
    for language in ("en", "zh-hant", "en", "zh-hant"):
        with translation.override(language):
            for steps in (1, 2, 1, 2):
                template.render(Context({"round": steps, "steps": steps}))
    assert sorted(looked_up) == sorted(
        [(language, "Round %(n)s") for language in ("en", "zh-hant")]
        + [(language, f"%(n)s step left|{n}") for language in ("en", "zh-hant") for n in (1, 2)]
    )


def test_a_blocktranslate_count_that_is_no_number_is_refused_as_django_refuses_it() -> None:
    from django.template import TemplateSyntaxError

    template = _block_template(BLOCK_SOURCES[1])
    with pytest.raises(TemplateSyntaxError, match="must be a number"):
        template.render(Context({"steps": "two"}))


def test_a_translation_that_does_not_format_falls_back_as_djangos_does(monkeypatch: pytest.MonkeyPatch) -> None:
    template = _block_template(BLOCK_SOURCES[0])
    real_gettext = translation.gettext

    def broken(message: str) -> str:  # a catalogue entry naming the wrong value, in a language only
        return "Runde %(m)s" if translation.get_language() else real_gettext(message)

    monkeypatch.setattr(template_fast_paths.translation, "gettext", broken)
    with translation.override("zh-hant"):
        ours = template.render(Context({"round": 7}))
        monkeypatch.setattr(BlockTranslateNode, "render", template_fast_paths._django_block_render)
        djangos = template.render(Context({"round": 7}))
    assert ours == djangos == "Round 7", "the untranslated message, as Django falls back to it"


def test_action_forms_are_escaped_as_format_html_escaped_them() -> None:
    """hideout's action forms are built with f-strings and the kept escapes: byte for byte what
    ``format_html`` gave, a label that is already HTML (a card's face) kept as it is."""
    from django.template import Context
    from django.utils.html import format_html
    from django.utils.safestring import mark_safe

    from games.templatetags import hideout

    context = Context({"action_url": "/m/7/action/?a=1&b=<2>"})
    payload = {"type": "offer", "note": "<\"Bob\" & 'Eve'>", "amount": 3}
    old_attrs = format_html('method="post" action="{0}" data-act', context["action_url"])
    assert hideout.action_form_attrs(context) == old_attrs
    old_fields = format_html(
        '<input type="hidden" name="action" value="{}">', json.dumps(payload, separators=(",", ":"))
    )
    assert hideout.action_fields(context, payload) == old_fields
    for label, css in (("Accept <now>", ""), (mark_safe('<span class="card">Driver</span>'), 'btn "x"')):
        old = format_html(
            '<form {} class="action-form">{}<button type="submit" class="{}">{}</button></form>',
            old_attrs,
            old_fields,
            css or "btn",
            label,
        )
        assert hideout.action_button(context, payload, label, css) == old


def test_has_type_answers_for_each_list_of_actions() -> None:
    from games.templatetags.hideout import has_type

    legal = [{"type": "choose", "roles": ["GOON"]}, {"type": "offer"}]
    assert has_type(legal, "choose") and has_type(legal, "offer") and not has_type(legal, "look")
    assert not has_type([], "choose") and not has_type(None, "choose")
    assert has_type([{"type": "look"}], "look") and not has_type([{"type": "look"}], "choose")
