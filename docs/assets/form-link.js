// The calculator opened from a link that names an edition (/calculator/?edition=1&…):
// before the first paint, says so on <html> (data-lvl-link-edition), so that the form
// shows that edition's fields (rules generated from the editions: forms.py), as
// calculator.js then leaves them (it removes the mark), not those of the edition the page
// is built with; nothing moves when it has filled the form in. No rule here, only what
// the address names. A classic script in <head>, this small: the first paint waits for
// nothing more than the stylesheets (the page's modules run once the whole page is parsed).
const edition = new URLSearchParams(location.search).get("edition");
if (edition !== null) document.documentElement.dataset.lvlLinkEdition = edition;
