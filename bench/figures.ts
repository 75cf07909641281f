/** How the bench report prints a figure: fixed digits, and a dash for what was not measured. */
export const f = (x: number, digits = 0) => (Number.isFinite(x) ? x.toFixed(digits) : "–");
export const ratio = (a: number, b: number) =>
  Number.isFinite(a) && Number.isFinite(b) && b > 0 ? `${(a / b).toFixed(2)}×` : "–";
