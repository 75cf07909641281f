/** Entry point: builds the app context (models + live feed) and mounts the timeline. */
import { render } from "preact";
import "./styles/tokens.css";
import "./styles/global.css";
import { feedUrl } from "./api/feed";
import { App } from "./components/App";
import { createAppContext } from "./context";

const root = document.getElementById("app");
if (!root) throw new Error("index.html must contain <div id=\"app\">");
const ctx = createAppContext(feedUrl(location));
render(<App ctx={ctx} />, root);

if (import.meta.hot) {
  import.meta.hot.dispose(() => {
    render(null, root);
    ctx.dispose();
  });
}
