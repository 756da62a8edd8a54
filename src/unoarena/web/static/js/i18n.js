// Translations for the page: the server sends one dictionary per language, built from the
// shared catalogue (cards, narration, rules) and the page's own strings.
let dict = { messages: {}, plurals: {}, nplurals: 2, languages: {} };
let lang = "en";
const listeners = new Set();

export const LANGUAGES = { en: "English", zh_TW: "繁體中文", zh_CN: "简体中文" };

export function fmt(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

/** `msg` in the current language, with `{name}` placeholders filled from `params`. */
export function t(msg, params) {
  return fmt(dict.messages[msg] || msg, params);
}

/** A message whose form depends on `n` (English: one/other; Chinese: one form). */
export function tn(singular, plural, n, params) {
  const forms = dict.plurals[singular];
  const p = Object.assign({ n }, params || {});
  if (forms && forms.length) {
    const i = dict.nplurals === 1 ? 0 : n === 1 ? 0 : 1;
    return fmt(forms[Math.min(i, forms.length - 1)], p);
  }
  return fmt(n === 1 ? singular : plural, p);
}

export function currentLang() {
  return lang;
}

/** A moment (seconds since the epoch) as the page's language writes a date and time. */
export function dateTime(seconds) {
  return new Date(seconds * 1000).toLocaleString(lang.replace("_", "-"));
}

export function initialLang() {
  const saved = localStorage.getItem("unoarena.lang");
  if (saved && saved in LANGUAGES) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const l = tag.toLowerCase();
    if (l.startsWith("zh")) {
      return /(tw|hk|mo|hant)/.test(l) ? "zh_TW" : "zh_CN";
    }
    if (l.startsWith("en")) return "en";
  }
  return "en";
}

export async function loadLang(next) {
  const res = await fetch(`/api/i18n/${encodeURIComponent(next)}`);
  if (res.ok) dict = await res.json();
  lang = next in LANGUAGES ? next : "en";
  localStorage.setItem("unoarena.lang", lang);
  document.documentElement.lang = lang.replace("_", "-");
  translateStatic(document);
  for (const fn of listeners) fn(lang);
}

/** Call `fn` after every language switch; returns a function that stops it. */
export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Elements marked `data-i18n="msgid"` get their text translated. */
export function translateStatic(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-title]")) {
    el.title = t(el.dataset.i18nTitle);
    el.setAttribute("aria-label", el.title);
  }
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) {
    el.placeholder = t(el.dataset.i18nPlaceholder);
  }
}
