"""Build-time code for the LVL Rules site. Never imported by lvl_rules itself."""
