"""Every generated page of the site, from lvl_rules: the navigation, the rule pages, the
technique charts, the scoring tables, what changed, the lookup and calculator forms and
the permalinks, as Markdown (Jinja2 templates in ``templates/``) handed to MkDocs."""
