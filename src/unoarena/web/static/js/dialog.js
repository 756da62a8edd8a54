// A small modal: a title, some option buttons, keyboard shortcuts; resolves with the choice.
import { t } from "./i18n.js";

let current = null;

export function closeDialog(value = null) {
  if (!current) return;
  const { overlay, resolve, onKey, previous } = current;
  current = null;
  document.removeEventListener("keydown", onKey, true);
  overlay.remove();
  if (previous && previous.focus) previous.focus();
  resolve(value);
}

export function isOpen() {
  return current !== null;
}

/**
 * options: [{label, value, key?, className?, node?}]. Returns a promise of the chosen value,
 * or null when dismissed (Escape, the close button, a click outside).
 */
export function choose(title, options, extra = {}) {
  closeDialog(null);
  return new Promise((resolve) => {
    const overlay = document.createElement("div");
    overlay.className = "overlay";
    const box = document.createElement("div");
    box.className = "dialog";
    box.setAttribute("role", "dialog");
    box.setAttribute("aria-modal", "true");
    box.setAttribute("aria-label", title);
    const h = document.createElement("h2");
    h.textContent = title;
    box.appendChild(h);
    if (extra.body) box.appendChild(extra.body);
    const row = document.createElement("div");
    row.className = "options" + (extra.className ? " " + extra.className : "");
    const keys = new Map();
    options.forEach((opt, i) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "option " + (opt.className || "");
      if (opt.node) b.appendChild(opt.node);
      const label = document.createElement("span");
      label.className = "label";
      label.textContent = opt.label;
      b.appendChild(label);
      const key = opt.key || (i < 9 ? String(i + 1) : null);
      if (key) {
        const k = document.createElement("kbd");
        k.textContent = key.toUpperCase();
        b.appendChild(k);
        keys.set(key.toLowerCase(), opt.value);
      }
      b.dataset.value = typeof opt.value === "string" ? opt.value : JSON.stringify(opt.value);
      b.addEventListener("click", () => closeDialog(opt.value));
      row.appendChild(b);
    });
    box.appendChild(row);
    if (!extra.noCancel) {
      const cancel = document.createElement("button");
      cancel.type = "button";
      cancel.className = "cancel";
      cancel.textContent = t("Cancel");
      cancel.addEventListener("click", () => closeDialog(null));
      box.appendChild(cancel);
    }
    overlay.appendChild(box);
    overlay.addEventListener("click", (e) => {
      if (e.target === overlay && !extra.noCancel) closeDialog(null);
    });
    const onKey = (e) => {
      if (e.key === "Escape" && !extra.noCancel) {
        e.preventDefault();
        e.stopPropagation();
        closeDialog(null);
      } else if (keys.has(e.key.toLowerCase()) && !e.ctrlKey && !e.metaKey && !e.altKey) {
        e.preventDefault();
        e.stopPropagation();
        closeDialog(keys.get(e.key.toLowerCase()));
      }
    };
    document.addEventListener("keydown", onKey, true);
    current = { overlay, resolve, onKey, previous: document.activeElement };
    document.body.appendChild(overlay);
    const first = row.querySelector("button");
    if (first) first.focus();
  });
}

/** A passing message at the bottom of the screen. */
export function toast(text, kind = "info", ms = 3500) {
  let area = document.getElementById("toasts");
  if (!area) {
    area = document.createElement("div");
    area.id = "toasts";
    area.setAttribute("aria-live", "polite");
    document.body.appendChild(area);
  }
  const el = document.createElement("div");
  el.className = `toast ${kind}`;
  el.textContent = text;
  area.appendChild(el);
  setTimeout(() => el.classList.add("fade"), ms - 400);
  setTimeout(() => el.remove(), ms);
}
