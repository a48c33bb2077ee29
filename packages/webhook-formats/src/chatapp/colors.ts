/**
 * Slack's named attachment colours, with the hex Slack itself shows for them
 * (docs/decisions.md#third-party-payloads).
 */
export const SLACK_PRESET_COLORS: Readonly<Record<string, number>> = {
  good: 0x2eb886,
  warning: 0xdaa038,
  danger: 0xa30200,
};

/** `good`/`warning`/`danger`, `#RRGGBB`/`RRGGBB` or `#RGB`/`RGB`; anything else has no colour. */
export function slackColor(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim().toLowerCase();
  const preset = SLACK_PRESET_COLORS[trimmed];
  if (preset !== undefined) return preset;
  const hex = trimmed.startsWith('#') ? trimmed.slice(1) : trimmed;
  if (/^[0-9a-f]{6}$/.test(hex)) return Number.parseInt(hex, 16);
  if (/^[0-9a-f]{3}$/.test(hex)) return Number.parseInt([...hex].map((digit) => digit + digit).join(''), 16);
  return undefined;
}
