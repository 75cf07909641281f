/**
 * Entry point of the audience viewer (`/j/<code>/` on the audience listener): the read-only shell with
 * the live UI's components, fed by the listener's read-only API, following the speaker's position.
 */
import "../api/no-eval";
import { render } from "preact";
import "../styles/tokens.css";
import "../styles/global.css";
import type { AudienceServerFrame } from "@hopscope/shared/trace/audience";
import { audienceSource } from "../api/audience-source";
import { installDataSource } from "../api/source";
import { createAppContext } from "../models/app-context";
import type { Shortcut } from "../models/keyboard";
import { ShareApp } from "../share/ShareApp";
import { FollowBar } from "./FollowBar";
import { FollowSpeakerModel } from "./FollowSpeakerModel";

const root = document.getElementById("app");
if (!root) throw new Error('audience.html must contain <div id="app">');

// Frames can arrive before the model exists (the feed opens as the context is built): keep them until then.
const early: AudienceServerFrame[] = [];
let deliver: (frame: AudienceServerFrame) => void = (frame) => void early.push(frame);
installDataSource(audienceSource(location, (frame) => deliver(frame)));
const ctx = createAppContext("audience:");
const follow = new FollowSpeakerModel(ctx);
deliver = follow.onFrame;
for (const frame of early.splice(0)) follow.onFrame(frame);

// "F": Follow the speaker ("f" is faster, "s" slower). In the help with the other keys.
const keys: Shortcut[] = [
  { keys: ["F"], label: "Follow the speaker again (after you stepped on your own)", run: () => follow.follow() },
];
// The viewer's own follow state ("Following the speaker"), never the speaker's follow-live bar: the room cannot change that.
render(
  <ShareApp
    ctx={ctx}
    embed={false}
    origin="audience view · read-only"
    extra={<FollowBar model={follow} />}
    keys={keys}
    waiting="Waiting for the speaker to open a trace…"
  />,
  root,
);
