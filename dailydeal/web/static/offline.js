// Offline play on this site's own pages: register the service worker (/sw.js, at the
// site's root so that it serves every page). Loaded by base.html only: the <daily-deal>
// element never registers one, so on other sites it works without it.
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register(new URL("../sw.js", import.meta.url)).catch(() => {
    /* not a secure context, or storage refused: the pages work online as before */
  });
}
