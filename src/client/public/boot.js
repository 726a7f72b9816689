// Starts the pre-rendered landing page's code once the page has been painted (decision 042): the
// HTML reads and its links work without it, so the first paint does not share the network (or the
// main thread) with scripts. scripts/prerender.ts lists the scripts on this element: the entry,
// and what the page's first load needs, fetched at once rather than one import after another. An
// external file: the CSP forbids inline scripts.
(function () {
  var me = document.currentScript;
  var entry = me.getAttribute("data-entry");
  var preload = (me.getAttribute("data-preload") || "").split(" ").filter(Boolean);
  var started = false;
  function start() {
    if (started) return;
    started = true;
    // The entry first: the largest file.
    var script = document.createElement("script");
    script.type = "module";
    script.crossOrigin = "";
    script.src = entry;
    document.head.appendChild(script);
    // Plain preloads (a module preload costs the main thread a compile per file); the module loader
    // takes them from the cache, and Vite's loader sees them on the page and adds no others.
    preload.forEach(function (href) {
      var link = document.createElement("link");
      link.rel = "preload";
      link.as = "script";
      link.crossOrigin = "";
      link.href = href;
      document.head.appendChild(link);
    });
  }
  // A frame callback runs just before the first paint, a timer after it. A tab opened in the
  // background paints no frames: the timer alone starts it there.
  requestAnimationFrame(function () {
    setTimeout(start, 0);
  });
  setTimeout(start, 1000);
})();
