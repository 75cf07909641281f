/** A QR code drawn as one SVG path from uqr's module matrix (no markup from strings). */
import { useMemo } from "preact/hooks";
import { encode } from "uqr";
import s from "./QrCode.module.css";

export function QrCode({ text, label }: { text: string; label: string }) {
  const { d, size } = useMemo(() => {
    const qr = encode(text, { border: 2 });
    let path = "";
    qr.data.forEach((row, y) => row.forEach((dark, x) => (path += dark ? `M${x} ${y}h1v1h-1z` : "")));
    return { d: path, size: qr.size };
  }, [text]);
  return (
    <svg
      class={s.qr}
      viewBox={`0 0 ${size} ${size}`}
      role="img"
      aria-label={label}
      data-testid="audience-qr"
      shape-rendering="crispEdges"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}
