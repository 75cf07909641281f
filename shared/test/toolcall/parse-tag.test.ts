import { describe, expect, it } from "vitest";
import { QWEN25_TEMPLATE as QWEN25 } from "@hopscope/shared/prompt/qwen25";
import { parseTag } from "@hopscope/shared/toolcall/parse-tag";

describe("parseTag", () => {
  it("finds <tool_call> in the qwen2.5 template Ollama ships", () => {
    expect(QWEN25).toHaveLength(1482);
    expect(parseTag(QWEN25)).toBe("<tool_call>");
  });

  it("finds <tool_call> in a qwen3-style template (tag inside the range)", () => {
    const qwen3 =
      '{{- range $i, $_ := .Messages }}{{- if eq .Role "assistant" }}<|im_start|>assistant\n' +
      "{{- if .Content }}\n{{ .Content }}{{ end }}" +
      '{{- if .ToolCalls }}{{ range .ToolCalls }}\n<tool_call>\n{"name": "{{ .Function.Name }}", "arguments": {{ .Function.Arguments }}}\n</tool_call>{{ end }}{{ end }}' +
      "<|im_end|>\n{{ end }}{{ end }}";
    expect(parseTag(qwen3)).toBe("<tool_call>");
  });

  it("falls back to { for a llama3.1-style template whose calls are bare JSON", () => {
    const llama31 =
      '{{- range $i, $_ := .Messages }}{{- if eq .Role "assistant" }}<|start_header_id|>assistant<|end_header_id|>\n' +
      '{{- if .ToolCalls }}\n{{ range .ToolCalls }}\n{"name": "{{ .Function.Name }}", "parameters": {{ .Function.Arguments }}}{{ end }}\n' +
      "{{- else }}\n\n{{ .Content }}\n{{- end }}<|eot_id|>{{ end }}{{ end }}";
    expect(parseTag(llama31)).toBe("{");
  });

  it.each([
    ["empty", "", "{"],
    ["no tag", "{{if .ToolCalls}}{{end}}", "{"],
    ["only an action in the range", "{{if .ToolCalls}}{{range .ToolCalls}}{{ . }}{{end}}{{end}}", "{"],
    ["json fence", "{{if .ToolCalls}}```json\n{{end}}", "```json"],
    ["square bracket", "{{if .ToolCalls}}[{{range .ToolCalls}}{{ . }}{{end}}]{{end}}", "["],
    ["bracket after whitespace", "{{if .ToolCalls}}\n [ {{range .ToolCalls}}{{ . }}{{end}}]{{end}}", "["],
    ["text after the range only", "{{if .ToolCalls}}{{range .ToolCalls}}{{ . }}{{end}}]{{end}}", "{"],
    [
      "CRLF before JSON",
      '{{if .ToolCalls}}{{range .ToolCalls}}\r\n{"name": "{{ .Function.Name }}"}{{end}}{{end}}',
      "{",
    ],
    [
      "tag before the range",
      "{{if .ToolCalls}}<|tool▁calls▁begin|>{{range .ToolCalls}}<|tool▁call▁begin|>{{end}}{{end}}",
      "<|tool▁calls▁begin|>",
    ],
    [
      "tag inside the range",
      '{{if .ToolCalls}}\n{{range .ToolCalls}}<tool_call>{"name": "x"}</tool_call>{{end}}{{end}}',
      "<tool_call>",
    ],
    [
      "first of several texts",
      "{{if .ToolCalls}}First text{{if .Something}}inner{{end}}Second text{{end}}",
      "First text",
    ],
    ["upper-case tag", "{{if .ToolCalls}}[TOOL_CALL] [{{end}}", "[TOOL_CALL] ["],
    [
      "else-if chain",
      '{{ if .Content }}{{ .Content }}{{- else if .ToolCalls }}<tool_call>\n{{ range .ToolCalls }}{"n": 1}{{ end }}{{ end }}',
      "<tool_call>",
    ],
    ["trim markers", "{{- if .ToolCalls -}}   [CALLS]   {{- end }}", "[CALLS]"],
    [
      "comment and string with braces",
      '{{/* {{if .ToolCalls}}X{{end}} */}}{{ if eq .Role "}}" }}{{ end }}{{ if .ToolCalls }}<call>{{ end }}',
      "<call>",
    ],
    [
      "$.ToolCalls is a variable, not a field",
      "{{ if $.ToolCalls }}<a>{{ end }}{{ if and .X .ToolCalls }}<b>{{ end }}",
      "<b>",
    ],
    ["inside a range's else", "{{ range .Messages }}x{{ else }}{{ if .ToolCalls }}<c>{{ end }}{{ end }}", "<c>"],
  ])("%s", (_label, template, want) => {
    expect(parseTag(template)).toBe(want);
  });

  it("rejects a template with an unclosed block, naming the block", () => {
    expect(() => parseTag("{{ if .ToolCalls }}<tool_call>")).toThrow(/if \.ToolCalls.*no \{\{end\}\}/);
  });
});
