import { LIMITS } from '@switchboard/contracts';
import { html, type Html } from './html.ts';

const AUDIT_LABEL = 'Reason (recorded in the audit log)';

export interface ReasonFieldOptions {
  /** The input's id; the label points at it. */
  id: string;
  required: boolean;
  /** The value an operator typed before the form came back with an error. */
  value?: string | undefined;
  label?: string;
  /** The API's bound on the text this reason becomes; an audit reason's by default. */
  maxLength?: number;
}

/**
 * The reason input of a write form. Its length is the API's bound, so the browser stops the
 * operator where the API would otherwise drop the reason (`X-Audit-Log-Reason` longer than the
 * bound is ignored, not refused).
 */
export function reasonField({
  id,
  required,
  value,
  label = AUDIT_LABEL,
  maxLength = LIMITS.auditLogs.reasonMaxLength,
}: ReasonFieldOptions): Html {
  return html`<label for="${id}">${label}</label>
<input type="text" id="${id}" name="reason" maxlength="${maxLength}"${required ? html` required` : ''} value="${value ?? ''}">`;
}
