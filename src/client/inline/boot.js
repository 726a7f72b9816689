// Starts the pre-rendered landing page's code once the page has been painted (decisions 042 and 056):
// the HTML reads and its links work without it, so the first paint shares the network and the main
// thread with nothing. scripts/prerender.ts writes this script into the page (inline: its CSP hash
// is allowed) with what to start on its element: the app's whole stylesheet (the page carries only
// the rules its HTML uses), the web app manifest, the entry, and what the page's first load needs,
// fetched at once rather than one import after another.
(function () {
  var me = document.currentScript;
  var root = document.getElementById("root");
  var started = false;

  function add(tag, attributes, after) {
    var element = document.createElement(tag);
    for (var name in attributes) element.setAttribute(name, attributes[name]);
    if (after && after.parentNode) after.parentNode.insertBefore(element, after.nextSibling);
    else document.head.appendChild(element);
    return element;
  }

  function start() {
    if (started) return;
    started = true;
    // The whole stylesheet where the page's own rules are, so that it cascades as they do; main.tsx
    // hydrates once it has loaded (what the app draws later needs it). Then the manifest, which a
    // browser fetches once the page has loaded (on a phone, that can be before the first paint).
    if (me.dataset.styles) {
      add("link", { rel: "stylesheet", href: me.dataset.styles, "data-app-styles": "" }, document.getElementById("page-styles"));
    }
    if (me.dataset.manifest) add("link", { rel: "manifest", href: me.dataset.manifest });
    // The entry first: the largest file. Then plain preloads (a module preload costs the main thread
    // a compile per file); the module loader takes them from the cache, and Vite's loader sees them
    // on the page and adds no others.
    add("script", { type: "module", crossorigin: "", src: me.dataset.entry });
    (me.dataset.preload || "")
      .split(" ")
      .filter(Boolean)
      .forEach(function (href) {
        add("link", { rel: "preload", as: "script", crossorigin: "", href: href });
      });
  }

  // After the first paint, as the browser reports it (not a timer or a frame callback: a test's
  // paused clock would hold those). A tab opened in the background paints nothing: it starts when
  // loaded. A visible page waits for its paint even when it has loaded first (a browser that paints
  // late, as a headless one can): the first paint then still waits for nothing.
  var types = window.PerformanceObserver && PerformanceObserver.supportedEntryTypes;
  if (types && types.indexOf("paint") >= 0) {
    new PerformanceObserver(function (list, observer) {
      observer.disconnect();
      start();
    }).observe({ type: "paint", buffered: true });
    window.addEventListener("load", function () {
      if (document.visibilityState === "hidden") start();
    });
  } else {
    start();
  }

  // A button pressed before the app has taken over the page is pressed again once it has (the app
  // says so with this event, from App's first effect): Watch Demo then opens instead of doing nothing.
  var pressed = [];
  function hold(event) {
    var button = event.target instanceof Element ? event.target.closest("button") : null;
    if (!button || !root.contains(button)) return;
    event.preventDefault();
    event.stopPropagation();
    if (pressed.indexOf(button) < 0) pressed.push(button);
  }
  document.addEventListener("click", hold, true);
  document.addEventListener(
    "roomcanvas:hydrated",
    function () {
      document.removeEventListener("click", hold, true);
      pressed.forEach(function (button) {
        if (button.isConnected) button.click();
      });
      pressed = [];
    },
    { once: true },
  );
})();
