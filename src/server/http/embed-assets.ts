/**
 * The embed's script and style sheet (decision 106), served as files from /embed/ so the embed's CSP
 * allows no inline script or style. Kept here as text: the server is one esbuild bundle, and the
 * embed must not load the app's bundle. Plain ES2017, no dependencies.
 *
 * The script drives the one slider of the page ([data-embed-slider]): a role="slider" element with
 * the arrow keys, Page Up/Down, Home and End, and dragging (pointer events); its value is the share of
 * the "before" picture shown. Without the script the page shows half and half.
 */
export const EMBED_SCRIPT = `"use strict";
(function () {
  var slider = document.querySelector("[data-embed-slider]");
  if (!slider) return;
  var frame = slider.closest(".frame");
  var before = frame.querySelector(".before");
  var handle = frame.querySelector(".handle");
  var template = slider.getAttribute("data-valuetext") || "{value}%";
  var value = 50;
  function set(next) {
    value = Math.min(100, Math.max(0, Math.round(next)));
    before.style.clipPath = "inset(0 " + (100 - value) + "% 0 0)";
    handle.style.left = value + "%";
    slider.setAttribute("aria-valuenow", String(value));
    slider.setAttribute("aria-valuetext", template.replace("{value}", String(value)));
  }
  slider.addEventListener("keydown", function (event) {
    var steps = { ArrowLeft: -5, ArrowDown: -5, ArrowRight: 5, ArrowUp: 5, PageDown: -20, PageUp: 20 };
    if (event.key in steps) set(value + steps[event.key]);
    else if (event.key === "Home") set(0);
    else if (event.key === "End") set(100);
    else return;
    event.preventDefault();
  });
  var dragging = false;
  function follow(event) {
    var box = frame.getBoundingClientRect();
    if (box.width > 0) set(((event.clientX - box.left) / box.width) * 100);
  }
  frame.addEventListener("pointerdown", function (event) {
    if (event.target.closest && event.target.closest("a")) return;
    dragging = true;
    frame.setPointerCapture(event.pointerId);
    slider.focus({ preventScroll: true });
    follow(event);
  });
  frame.addEventListener("pointermove", function (event) {
    if (dragging) follow(event);
  });
  function stop() {
    dragging = false;
  }
  frame.addEventListener("pointerup", stop);
  frame.addEventListener("pointercancel", stop);
  set(50);
})();
`;

export const EMBED_STYLE = `:root { color-scheme: light dark; --bg: #ffffff; --fg: #0f172a; --muted: #475569; --frame: #f1f5f9; --accent: #4f46e5; }
@media (prefers-color-scheme: dark) { :root { --bg: #0f172a; --fg: #f1f5f9; --muted: #cbd5e1; --frame: #020617; --accent: #a5b4fc; } }
* { box-sizing: border-box; }
html, body { height: 100%; margin: 0; }
body { display: flex; flex-direction: column; background: var(--bg); color: var(--fg); font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
.frame { position: relative; flex: 1; min-height: 0; overflow: hidden; background: var(--frame); touch-action: pan-y; user-select: none; -webkit-user-select: none; }
.frame img { position: absolute; inset: 0; width: 100%; height: 100%; object-fit: contain; pointer-events: none; }
.frame .before { clip-path: inset(0 50% 0 0); }
.compare { cursor: ew-resize; }
.handle { position: absolute; top: 0; bottom: 0; left: 50%; width: 0; pointer-events: none; }
.handle::before { content: ""; position: absolute; top: 0; bottom: 0; left: -1px; width: 2px; background: #ffffff; box-shadow: 0 0 4px rgba(0, 0, 0, 0.5); }
.handle::after { content: "\\2194"; position: absolute; top: 50%; left: -18px; width: 36px; height: 36px; margin-top: -18px; border-radius: 50%; background: #ffffff; color: #0f172a; font-size: 18px; line-height: 36px; text-align: center; box-shadow: 0 1px 6px rgba(0, 0, 0, 0.4); }
[data-embed-slider] { position: absolute; inset: 0; outline: none; }
[data-embed-slider]:focus-visible { outline: 3px solid var(--accent); outline-offset: -3px; }
.label { position: absolute; top: 10px; padding: 2px 8px; border-radius: 4px; background: rgba(15, 23, 42, 0.72); color: #ffffff; font-size: 12px; font-weight: 600; letter-spacing: 0.04em; text-transform: uppercase; pointer-events: none; }
.label.before-label { left: 10px; }
.label.after-label { right: 10px; }
footer { display: flex; align-items: center; justify-content: space-between; gap: 12px; padding: 8px 12px; }
h1 { margin: 0; min-width: 0; overflow: hidden; font-size: 14px; font-weight: 600; text-overflow: ellipsis; white-space: nowrap; }
footer a { flex-shrink: 0; color: var(--muted); font-size: 12px; text-decoration: underline; text-underline-offset: 2px; }
footer a:hover, footer a:focus-visible { color: var(--fg); }
footer a:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; border-radius: 2px; }
`;
