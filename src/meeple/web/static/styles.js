// A module's stylesheet, added to the page once however often the module is loaded.
// Boards and panels call it with a URL relative to themselves:
//   loadStylesheet(new URL("./maiterra.css", import.meta.url).href)

export function loadStylesheet(href) {
  if (typeof document === "undefined") return;
  const absolute = new URL(href, document.baseURI).href;
  const loaded = [...document.querySelectorAll('link[rel="stylesheet"]')].some((link) => link.href === absolute);
  if (loaded) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = absolute;
  document.head.append(link);
}
