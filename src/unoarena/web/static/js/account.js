// Accounts, when the server has them: the top bar's account link, the /account page (sign up,
// log in, log out, change the password, delete), and the "rated" option of a new room. The session lives in an
// HttpOnly cookie the script never sees; it only asks the server who is signed in.
import { t, currentLang, onLangChange } from "./i18n.js";
import { getJSON, postJSON as postBody, savedSeats } from "./api.js";
import { el } from "./util.js";

let state = { enabled: false, account: null };

// errors come back in the page's language (the server reads it from the address here)
const postJSON = (path, data) => postBody(`${path}?lang=${currentLang()}`, data);
const listeners = new Set();

export function accountState() {
  return state;
}

/** Call `fn` whenever who is signed in changes; returns a function that stops it. */
export function onAccountChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function setState(next) {
  state = next;
  drawTopbar();
  for (const fn of listeners) fn(state);
}

export async function initAccount() {
  try {
    setState(await getJSON("/api/account"));
  } catch (e) {
    setState({ enabled: false, account: null });
  }
  onLangChange(drawTopbar);
  // a seat taken while signed in (a room created or joined) counts for the account
  window.addEventListener("unoarena:seat", (e) => {
    if (state.account) postJSON("/api/account/seats", { seats: [e.detail] }).catch(() => {});
  });
}

function drawTopbar() {
  const bar = document.querySelector(".topbar");
  let slot = document.getElementById("account-slot");
  if (!state.enabled) {
    if (slot) slot.remove();
    const nav = document.getElementById("nav-leaderboard");
    if (nav) nav.remove();
    return;
  }
  const nav = bar.querySelector("nav");
  if (!document.getElementById("nav-leaderboard")) {
    nav.appendChild(el("a", { href: "/leaderboard", "data-link": true, id: "nav-leaderboard" }));
  }
  document.getElementById("nav-leaderboard").textContent = t("Leaderboard");
  if (!slot) {
    slot = el("span", { id: "account-slot", class: "account-slot" });
    bar.insertBefore(slot, document.getElementById("sound-toggle"));
  }
  slot.innerHTML = "";
  const who = state.account;
  slot.appendChild(el("a", { href: "/account", "data-link": true, id: "account-link",
    class: "account-link" + (who ? " signed-in" : ""), text: who ? who.name : t("Log in") }));
}

/** The new-room form's "rated" checkbox, or null on a server without accounts. */
export function ratedOption(form) {
  if (!state.enabled) return null;
  const box = el("input", { type: "checkbox", id: "rated", checked: !!form.rated });
  box.addEventListener("change", () => (form.rated = box.checked));
  return el("label", { class: "field rated-option" },
    el("span", {}, box, " ", t("Rated game")),
    el("small", { class: "hint", text: t("The match moves the ratings of signed-in players and bots.") }));
}

function field(label, input) {
  return el("label", { class: "field" }, el("span", { text: label }), input);
}

export function showAccount(app, navigate) {
  let alive = true;

  function render() {
    app.innerHTML = "";
    const page = el("div", { class: "account-page" });
    app.appendChild(page);
    if (!state.enabled) {
      page.appendChild(el("p", { class: "hint", text: t("This server has no accounts: everyone plays as a guest.") }));
      return;
    }
    if (state.account) signedIn(page);
    else signIn(page);
  }

  function signIn(page) {
    page.appendChild(el("h1", { text: t("Log in or sign up") }));
    page.appendChild(el("p", { class: "hint", text: t("An account keeps your rating and your games. Guests can play without one.") }));
    const name = el("input", { id: "account-name", name: "username", autocomplete: "username", maxlength: "24", required: true });
    const pass = el("input", { id: "account-password", name: "password", type: "password", autocomplete: "current-password", maxlength: "128", required: true });
    const err = el("p", { class: "error", id: "account-error", role: "alert" });
    const login = el("button", { type: "submit", class: "primary", id: "login", text: t("Log in") });
    const signup = el("button", { type: "button", id: "signup", text: t("Create account") });
    const form = el("form", { class: "panel account-form" },
      field(t("Name"), name), field(t("Password"), pass),
      el("p", { class: "hint", text: t("Names have 3 to 24 letters, digits, _ or -; passwords at least 8 characters.") }),
      err, el("div", { class: "row" }, login, signup));
    async function send(path) {
      err.textContent = "";
      try {
        const res = await postJSON(path, { name: name.value, password: pass.value, seats: savedSeats() });
        setState({ enabled: true, account: res.account });
        navigate(`/u/${encodeURIComponent(res.account.name)}`);
      } catch (ex) {
        err.textContent = ex.message;
      }
    }
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      send("/api/account/login");
    });
    signup.addEventListener("click", () => {
      if (form.reportValidity()) send("/api/account/signup");
    });
    page.appendChild(form);
    page.appendChild(privacy());
  }

  function signedIn(page) {
    const who = state.account.name;
    page.appendChild(el("h1", { text: t("Signed in as {name}", { name: who }) }));
    const err = el("p", { class: "error", id: "account-error", role: "alert" });
    const logout = el("button", { type: "button", id: "logout", text: t("Log out") });
    logout.addEventListener("click", async () => {
      try {
        await postJSON("/api/account/logout", {});
        setState({ enabled: true, account: null });
      } catch (ex) {
        err.textContent = ex.message;
      }
    });
    page.appendChild(el("section", { class: "panel" },
      el("div", { class: "row" },
        el("a", { href: `/u/${encodeURIComponent(who)}`, "data-link": true, class: "button", id: "my-profile", text: t("Your profile") }),
        el("a", { href: "/leaderboard", "data-link": true, class: "button", text: t("Leaderboard") }),
        logout), err));
    page.appendChild(passwordForm());
    const pass = el("input", { id: "delete-password", type: "password", autocomplete: "current-password", maxlength: "128" });
    const del = el("button", { type: "submit", class: "danger", id: "delete-account", text: t("Delete my account") });
    const delErr = el("p", { class: "error", id: "delete-error", role: "alert" });
    const form = el("form", { class: "panel danger-zone" },
      el("h2", { text: t("Delete account") }),
      el("p", { text: t("Deleting removes your account, your password's hash, your sessions, your ratings and their history, and the links from your seats to the account. Replays of games you played keep the name you used at the table, as a guest's do.") }),
      field(t("Password"), pass), delErr, del);
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      delErr.textContent = "";
      try {
        await postJSON("/api/account/delete", { password: pass.value });
        setState({ enabled: true, account: null });
      } catch (ex) {
        delErr.textContent = ex.message;
      }
    });
    page.appendChild(form);
  }

  /** Change the password: the old one proves it is the owner (not someone at an unlocked
   * browser); every other session of the account ends. */
  function passwordForm() {
    const old = el("input", { id: "old-password", type: "password", autocomplete: "current-password", maxlength: "128", required: true });
    const next = el("input", { id: "new-password", type: "password", autocomplete: "new-password", minlength: "8", maxlength: "128", required: true });
    const msg = el("p", { class: "error", id: "password-error", role: "alert" });
    const done = el("p", { class: "hint", id: "password-done", role: "status" });
    const form = el("form", { class: "panel password-form" },
      el("h2", { text: t("Change password") }),
      el("p", { class: "hint", text: t("Changing it signs you out on every other device. Forgot it? Ask whoever runs this server to reset it: there is no e-mail here.") }),
      field(t("Current password"), old), field(t("New password"), next), msg, done,
      el("button", { type: "submit", id: "change-password", text: t("Change password") }));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      msg.textContent = done.textContent = "";
      try {
        await postJSON("/api/account/password", { old: old.value, new: next.value });
        old.value = next.value = "";
        done.textContent = t("Password changed. Your other devices are signed out.");
      } catch (ex) {
        msg.textContent = ex.message;
      }
    });
    return form;
  }

  function privacy() {
    return el("section", { class: "panel" }, el("h2", { text: t("What is stored") }),
      el("p", { text: t("Your name, a hash of your password (Argon2id), your sessions (as hashes), which seats you played, and your ratings. No e-mail, no tracking. You can delete it all at any time.") }));
  }

  render();
  const stops = [onLangChange(() => alive && render()), onAccountChange(() => alive && render())];
  return () => {
    alive = false;
    for (const stop of stops) stop();
  };
}
