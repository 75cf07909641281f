/** Headers in wire order. Credentials are never shown, even if one slipped past the recorder's redaction. */
import type { HeaderList } from "@hopscope/shared/trace/schemas";
import { displayHeaderValue } from "../models/body";
import s from "./HeadersTable.module.css";

export function HeadersTable({ headers }: { headers: HeaderList }) {
  if (headers.length === 0) return <p class={s.none}>no headers</p>;
  return (
    <table class={s.table}>
      <tbody>
        {headers.map(([name, value], i) => (
          <tr key={i}>
            <th>{name}</th>
            <td>{displayHeaderValue(name, value)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
