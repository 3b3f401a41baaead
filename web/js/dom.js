// The page's small DOM helpers: find an element, say a status, build a table row or a chart.
// Nothing here runs on import; each touches the document only when called.

export const $ = (id) => document.getElementById(id);

export const SVG = "http://www.w3.org/2000/svg";

/** An inline SVG bar chart of VALUES (one bar each, the bar at index MARKED drawn as the
 * player's), hidden from screen readers: TEXT, in a paragraph beside it, says the same. */
export function barChart(holder, values, marked, text) {
  const svg = document.createElementNS(SVG, "svg");
  const width = 10 * Math.max(values.length, 1);
  svg.setAttribute("viewBox", `0 0 ${width} 50`);
  svg.setAttribute("preserveAspectRatio", "none");
  svg.setAttribute("aria-hidden", "true");
  svg.classList.add("bars");
  const top = Math.max(1, ...values);
  values.forEach((value, index) => {
    const bar = document.createElementNS(SVG, "rect");
    const height = value ? Math.max(1, (48 * value) / top) : 0;
    bar.setAttribute("x", String(index * 10 + 1));
    bar.setAttribute("width", "8");
    bar.setAttribute("y", String(50 - height));
    bar.setAttribute("height", String(height));
    if (index === marked) bar.classList.add("mine");
    svg.append(bar);
  });
  const description = document.createElement("p");
  description.className = "sr-only chart-text";
  description.textContent = text;
  holder.replaceChildren(svg, description);
}

export function notice(text, kind) {
  const box = $("notice");
  box.textContent = text || "";
  box.className = "notice" + (kind ? " " + kind : "");
  box.hidden = !text;
}

export function say(element, text, kind) {
  element.textContent = text || "";
  element.className = "status" + (kind ? " " + kind : "");
}

/** Copy the link INPUT holds, and say so in STATUS (or, without a clipboard, select it to copy). */
export async function copyLink(input, status) {
  try {
    await navigator.clipboard.writeText(input.value);
    say(status, "Link copied: send it to your friends.", "ok");
  } catch {
    input.select();
    say(status, "Select the link and copy it.", "");
  }
}

/** A table row whose cells carry their column name, for the narrow-screen card layout. */
export function tableRow(...cells) {
  const tr = document.createElement("tr");
  for (const [label, value, className] of cells) {
    const td = document.createElement("td");
    td.dataset.label = label;
    if (className) td.className = className;
    if (value instanceof Node) td.append(value);
    else td.textContent = value ?? "";
    tr.append(td);
  }
  return tr;
}

export function emptyRow(table, text) {
  const tr = document.createElement("tr");
  const td = document.createElement("td");
  td.colSpan = table.tHead.rows[0].cells.length;
  td.className = "empty";
  td.textContent = text;
  tr.append(td);
  return tr;
}

export function tile(letter) {
  const span = document.createElement("span");
  span.textContent = letter;
  return span;
}

/** A table (ATTRIBUTES) with a screen readers' CAPTION, a head of COLUMNS and an empty body. */
export function emptyTable(attributes, caption, columns) {
  const head = element("tr", {}, ...columns.map((name) => element("th", { scope: "col" }, name)));
  return element("table", attributes, element("caption", { class: "sr-only" }, caption), element("thead", {}, head), element("tbody"));
}

/** A new TAG element with ATTRIBUTES and CHILDREN (nodes or text). */
export function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  for (const child of children) node.append(child);
  return node;
}
