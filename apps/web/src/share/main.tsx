/**
 * Entry point of a shared trace page (the HTML export): reads the trace embedded in the page, installs
 * it as the data source, and mounts the read-only shell with the live UI's components. `?hop=N` /
 * `#hop=N` opens hop N; `?embed` hides the chrome.
 */
import "../api/no-eval";
import { render } from "preact";
import "../styles/tokens.css";
import "../styles/global.css";
import { installDataSource } from "../api/source";
import { readEmbeddedTrace, staticSource } from "../api/static-source";
import { createAppContext } from "../models/app-context";
import { formatRoute, parseRoute } from "../models/route";
import { parseShareParams } from "./share-params";
import { ShareApp } from "./ShareApp";
import s from "./ShareApp.module.css";

const root = document.getElementById("app");
if (!root) throw new Error('share.html must contain <div id="app">');

function start(el: HTMLElement): void {
  let shared;
  try {
    shared = readEmbeddedTrace(document);
  } catch (e) {
    render(
      <p class={`${s.message} ${s.error}`} role="alert">
        {e instanceof Error ? e.message : String(e)}
      </p>,
      el,
    );
    return;
  }
  const params = parseShareParams(location.search, location.hash);
  const id = shared.bundle.trace.id;
  const route = parseRoute(location.hash);
  if (route.traceId !== id)
    history.replaceState(
      null,
      "",
      `${location.search}${formatRoute({ traceId: id, hop: params.hop ?? 1, present: route.present })}`,
    );
  installDataSource(staticSource(shared));
  const ctx = createAppContext("embedded:");
  const exported = new Date(shared.bundle.exportedAt).toISOString().slice(0, 16).replace("T", " ");
  const origin = `read-only copy · exported ${exported} UTC by ${shared.bundle.generator.name} ${shared.bundle.generator.version}`;
  render(<ShareApp ctx={ctx} embed={params.embed} origin={origin} />, el);
}

start(root);
