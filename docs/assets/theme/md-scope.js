// Material for MkDocs 9.8.2: the inline script of partials/javascripts/base.html (the
// start-up helpers __md_scope, __md_get, __md_set), in a file because our
// Content-Security-Policy allows no inline script. The same code, except the scope (the
// site root), which the page passes in the script tag's data-md-scope attribute.
// Pinned: tests/website/test_theme_pins.py fails when the installed theme's differs.
__md_scope=new URL(document.currentScript.dataset.mdScope,location),__md_hash=e=>[...e].reduce(((e,_)=>(e<<5)-e+_.charCodeAt(0)),0),__md_get=(e,_=localStorage,t=__md_scope)=>JSON.parse(_.getItem(t.pathname+"."+e)),__md_set=(e,_,t=localStorage,a=__md_scope)=>{try{t.setItem(a.pathname+"."+e,JSON.stringify(_))}catch(e){}}
