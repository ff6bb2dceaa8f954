// The page's views (Count, Discard, ...) as tabs: the address's #name picks the view. Each view is
// an element with data-view="name" and a tab <a href="#name" data-tab="name"> in the header's nav;
// a new view needs only those two, no script. Unknown or empty names show the first view.

function show() {
  const views = [...document.querySelectorAll("[data-view]")];
  if (!views.length) return null;
  const names = views.map((v) => v.dataset.view);
  const wanted = location.hash.slice(1);
  const current = names.includes(wanted) ? wanted : names[0];
  for (const view of views) view.hidden = view.dataset.view !== current;
  for (const tab of document.querySelectorAll("[data-tab]")) {
    if (tab.dataset.tab === current) tab.setAttribute("aria-current", "page");
    else tab.removeAttribute("aria-current");
  }
  document.body.dataset.current = current;
  return current;
}

/** Show the view the address names, now and on every change; `shown(name)` hears each. */
export function startViews(shown = () => {}) {
  const update = () => { const name = show(); if (name) shown(name); };
  window.addEventListener("hashchange", update);
  update();
}
