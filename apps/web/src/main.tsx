/** Entry point: builds the app context (models + live feed) and mounts the timeline. */
import { render } from "preact";
import "./styles/tokens.css";
import "./styles/global.css";
import { feedUrl } from "./api/feed";
import { App } from "./components/App";
import { createAppContext } from "./models/app-context";
import { AudienceBadge } from "./audience/AudienceBadge";
import { PresenterAudienceModel } from "./audience/PresenterAudienceModel";

const root = document.getElementById("app");
if (!root) throw new Error('index.html must contain <div id="app">');
const ctx = createAppContext(feedUrl(location));
render(<App ctx={ctx} />, root);
// The audience panel has its own root: it floats over the timeline and the presenter view alike.
const audience = new PresenterAudienceModel(ctx);
const audienceRoot = document.body.appendChild(document.createElement("div"));
render(<AudienceBadge model={audience} />, audienceRoot);

if (import.meta.hot) {
  import.meta.hot.dispose(() => {
    render(null, root);
    render(null, audienceRoot);
    audience[Symbol.dispose]();
    ctx.dispose();
  });
}
