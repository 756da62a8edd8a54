// Building elements without innerHTML for anything a person typed.
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on") && typeof v === "function") e.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) e.append(c);
  return e;
}

export function initial(name) {
  return (name || "?").trim().charAt(0).toUpperCase() || "?";
}

// Rule-book identifiers ("(EFF-3)", "（HR-JUMP、DIG-3）", "(RULES §16)") and card codes ("(W4)")
// in rule texts: the page speaks in words; the identifiers belong to the rules documentation.
const RULE_ID = String.raw`(?:[A-Z][A-Z0-9]{0,5}(?:-[A-Z0-9.]+)?|(?:RULES\s*)?§\s?\d+)`;
const RULE_REFS = new RegExp(String.raw`\s*[(（]${RULE_ID}(?:\s*[,，、]\s*${RULE_ID})*[)）]`, "g");

/** A rule text without rule-book identifiers or card codes in brackets. */
export function plainRules(text) {
  return String(text || "").replace(RULE_REFS, "");
}
