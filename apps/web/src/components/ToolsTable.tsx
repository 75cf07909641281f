/** The tools a tools/list answer declared, as the article's table: name, arguments (type, required), description. */
import type { ToolRow } from "../models/tools-table";
import s from "./ToolsTable.module.css";

export function ToolsTable({ rows }: { rows: ToolRow[] }) {
  return (
    <table class={s.table} data-testid="tools-table">
      <thead>
        <tr>
          <th>tool</th>
          <th>arguments</th>
          <th>description (written for the model)</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.name} data-tool={r.name}>
            <td class={s.name}>
              <code>{r.name}</code>
              {r.hints.map((h) => (
                <span key={h} class={s.hint} data-hint={h}>
                  {h}
                </span>
              ))}
            </td>
            <td class={s.args}>
              {r.arguments.length === 0 ? (
                <span class={s.none}>none</span>
              ) : (
                r.arguments.map((a) => (
                  <div key={a.name} title={a.description}>
                    <code>{a.name}</code>: <span class={s.type}>{a.type}</span>
                    {a.required ? <span class={s.req}> required</span> : <span class={s.opt}> optional</span>}
                  </div>
                ))
              )}
            </td>
            <td class={s.desc}>{r.description}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
