/** The taps redact with the one rule set imports and exports use (@hopscope/shared/trace/redact). */
export { REDACTED, isSecretHeader, redactHeaders, redactUrl } from "@hopscope/shared/trace/redact";
