// The page: a tiny router over /, /r/<room>, /replays and /replay/<room>/<match>.
import { initialLang, loadLang, currentLang, onLangChange } from "./i18n.js";
import { showHome } from "./home.js";
import { showLobby } from "./lobby.js";
import { showRoom } from "./room.js";
import { showReplays, showReplay } from "./replay.js";
import { showLearn } from "./learn.js";
import { showReview } from "./review.js";
import { initSound } from "./sound.js";
import { initAccount, showAccount } from "./account.js";
import { showLeaderboard, showProfile } from "./ratings.js";

let cleanup = null;

export function navigate(path) {
  if (path !== location.pathname) history.pushState({}, "", path);
  route();
}

function route() {
  if (cleanup) {
    cleanup();
    cleanup = null;
  }
  const app = document.getElementById("app");
  app.innerHTML = "";
  window.scrollTo(0, 0); // a new page opens at its top, wherever the last one was scrolled
  const path = location.pathname;
  let m;
  if ((m = path.match(/^\/r\/([A-Za-z0-9_-]+)$/))) cleanup = showRoom(app, m[1], navigate);
  else if (path === "/replays") cleanup = showReplays(app, navigate);
  else if (path === "/lobby") cleanup = showLobby(app, navigate);
  else if ((m = path.match(/^\/replay\/([A-Za-z0-9_-]+)\/(\d+)$/)))
    cleanup = showReplay(app, m[1], Number(m[2]), navigate);
  else if ((m = path.match(/^\/learn(?:\/([a-z0-9]+))?$/))) cleanup = showLearn(app, m[1], navigate);
  else if (path === "/account") cleanup = showAccount(app, navigate);
  else if (path === "/leaderboard") cleanup = showLeaderboard(app);
  else if ((m = path.match(/^\/u\/([^/]+)$/))) cleanup = showProfile(app, decodeURIComponent(m[1]));
  else if ((m = path.match(/^\/review\/([A-Za-z0-9_-]+)\/(\d+)$/)))
    cleanup = showReview(app, m[1], Number(m[2]), navigate);
  else cleanup = showHome(app, navigate);
  markCurrent();
}

document.addEventListener("click", (e) => {
  const a = e.target.closest("a[data-link]");
  if (a && !e.ctrlKey && !e.metaKey && !e.shiftKey && e.button === 0) {
    e.preventDefault();
    navigate(a.getAttribute("href"));
  }
});
window.addEventListener("popstate", route);

/** The phone's menu of the top bar's links (☰; wider screens show the links and hide the
 * button): it opens and closes on the button, and closes on a link, Escape or a tap elsewhere.
 * The link of the page shown is marked for it. */
function initMenu() {
  const bar = document.querySelector(".topbar");
  const button = document.getElementById("nav-toggle");
  const nav = document.getElementById("site-nav");
  const open = (yes) => {
    bar.classList.toggle("nav-open", yes);
    button.setAttribute("aria-expanded", yes ? "true" : "false");
  };
  button.addEventListener("click", () => open(!bar.classList.contains("nav-open")));
  nav.addEventListener("click", (e) => e.target.closest("a") && open(false));
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && bar.classList.contains("nav-open")) {
      open(false);
      button.focus();
    }
  });
  document.addEventListener("click", (e) => !bar.contains(e.target) && open(false));
}

function markCurrent() {
  for (const a of document.querySelectorAll("#site-nav a")) {
    if (a.getAttribute("href") === location.pathname) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
}

async function start() {
  const select = document.getElementById("lang-select");
  await loadLang(initialLang());
  select.value = currentLang();
  select.addEventListener("change", () => loadLang(select.value));
  initSound();
  initMenu();
  await initAccount();
  onLangChange(() => {
    select.value = currentLang();
  });
  route();
}

start();

// Installable as an app: the service worker caches the page's static files (never the game).
// Browsers allow it on HTTPS and on this machine (localhost) only.
if ("serviceWorker" in navigator && window.isSecureContext) {
  navigator.serviceWorker.register("/sw.js").catch((e) => console.warn("no service worker:", e));
}
