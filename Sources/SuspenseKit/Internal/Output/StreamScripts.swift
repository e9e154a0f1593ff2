/// The inline scripts of an out-of-order stream, written by ``StreamChunker``.
extension StreamChunker {
    /// Replaces the nodes between the markers of region `i` with the content of the template
    /// right before the calling script, keeping the markers for a later replacement; removes the
    /// template and the script. The markers are indexed once, by one walk over the page the
    /// first time and then over each new content only (not over the page again), so that
    /// neither an element's id nor a marker elsewhere can be taken for the region's.
    static let swapFunction =
        "function $sk(i){var d=document,c=d.currentScript,t=c.previousElementSibling,m=$sk.m,r,g;"
        + "function k(s){var w=d.createTreeWalker(s,128),n,x;while(n=w.nextNode())"
        + "if(x=/^(\\/?)sk:(.*)$/.exec(n.data))(m[x[2]]||(m[x[2]]=[]))[x[1]?1:0]=n}"
        + "if(!m){m=$sk.m={};k(d)}r=m[i];if(t&&t.tagName==\"TEMPLATE\"&&r&&r[0]&&r[1]){g=d.createRange();"
        + "g.setStartAfter(r[0]);g.setEndBefore(r[1]);g.deleteContents();k(t.content);g.insertNode(t.content)}"
        + "if(t&&t.tagName==\"TEMPLATE\")t.remove();c.remove()}"

    /// Applies the `<template for="i">` right before the calling script when the browser left it
    /// in the page (it does not support declarative partial updates): there the parser made each
    /// `<?start name="i">` and `<?end>` a comment (`?start name="i"`, `?end`), and the template's
    /// content replaces the comments of region `i` and everything between them, the matching
    /// `?end` being the first one that closes no region opened inside. Removes the template and
    /// the script; where the browser applied the template, only the script.
    static let templateForFunction =
        #"function $skt(i){var d=document,c=d.currentScript,t=c.previousElementSibling,w,n,s,e,h=0,g;"#
        + #"if(t&&t.tagName=="TEMPLATE"&&t.getAttribute("for")==i){w=d.createTreeWalker(d,128);"#
        + #"while(n=w.nextNode()){if(!s){if(n.data=='?start name="'+i+'"')s=n}"#
        + #"else if(n.data.indexOf("?start")==0)h++;else if(n.data=="?end"){if(!h){e=n;break}h--}}"#
        + #"if(s&&e){g=d.createRange();g.setStartBefore(s);g.setEndAfter(e);g.deleteContents();"#
        + #"g.insertNode(t.content)}t.remove()}c.remove()}"#

    /// Removes every marker (the page is final) and itself.
    static let cleanupScript =
        "(function(d){var w=d.createTreeWalker(d,128),n,r=[];while(n=w.nextNode())if(/^\\/?sk:/.test(n.data))r.push(n);"
        + "r.forEach(function(c){c.remove()});d.currentScript.remove()})(document)"
}
