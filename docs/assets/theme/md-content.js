// Material for MkDocs 9.8.2: the inline script of partials/javascripts/content.html
// (opens the content tab a link's #fragment names), in a file because our
// Content-Security-Policy allows no inline script. The same code.
// Pinned: tests/website/test_theme_pins.py fails when the installed theme's differs.
var target=document.getElementById(location.hash.slice(1));target&&target.name&&(target.checked=target.name.startsWith("__tabbed_"))
