"""A constant ``{% translate %}`` is translated once per language (games.template_fast_paths)."""

from __future__ import annotations

import pytest
from django.template import Context, Engine
from django.templatetags.i18n import TranslateNode
from django.utils import translation

from games import template_fast_paths


def _nodes(source: str) -> list[TranslateNode]:
    engine = Engine(libraries={"i18n": "django.templatetags.i18n"})
    template = engine.from_string("{% load i18n %}" + source)
    return [node for node in template.nodelist.get_nodes_by_type(TranslateNode) if isinstance(node, TranslateNode)]


def test_the_site_renders_with_both_fast_paths() -> None:
    from django.template import base

    assert TranslateNode.render is template_fast_paths.render
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
