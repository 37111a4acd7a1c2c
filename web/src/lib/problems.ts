/** What the API answers when it refuses: `{ error: { code, message, details } }`. */
export interface Problem {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/** The error envelope of an answer, or a stand-in when there is none (the network failed, a proxy answered). */
export function problemOf(error: unknown, status?: number): Problem {
  const inner = (error as { error?: Partial<Problem> } | null | undefined)?.error;
  if (inner && typeof inner.code === 'string' && typeof inner.message === 'string') {
    return { code: inner.code, message: inner.message, ...(inner.details ? { details: inner.details } : {}) };
  }
  return { code: 'UNAVAILABLE', message: status ? `The service answered ${status}. Please try again.` : 'The service could not be reached. Please try again.' };
}

/**
 * Refusals that concern one field although the API names none: where the form shows them.
 * QUOTA_EXCEEDED is about the size the plan asks for, CAPACITY_UNAVAILABLE about the location.
 */
const FIELD_OF_CODE: Record<string, string> = {
  QUOTA_EXCEEDED: 'planId',
  PROJECT_QUOTA_EXCEEDED: 'projectId',
  CAPACITY_UNAVAILABLE: 'locationId',
  IMAGE_SSH_KEY_REQUIRED: 'sshKeys',
  IMAGE_LOGIN_METHOD_UNSUPPORTED: 'imageId',
  USER_DATA_UNSUPPORTED: 'userData',
};

export interface PlacedProblem {
  /** Message per form field (a field's first path segment: `sshKeys.1` belongs to `sshKeys`). */
  fields: Record<string, string>;
  /** What belongs to no field of the form; shown above the submit button. */
  form?: string;
}

/**
 * Places a refusal next to the fields it concerns: `details.fields` of INVALID_INPUT (and the
 * other codes that name fields), or the field a code is about; anything else goes to the form.
 * Only fields the form has are used.
 */
export function placeProblem(problem: Problem, formFields: readonly string[]): PlacedProblem {
  const fields: Record<string, string> = {};
  const named = problem.details?.fields;
  if (named && typeof named === 'object') {
    for (const [path, message] of Object.entries(named as Record<string, unknown>)) {
      const [field, index] = path.split('.');
      if (!field || !formFields.includes(field)) continue;
      const text = index !== undefined && /^\d+$/.test(index) ? `line ${Number(index) + 1}: ${String(message)}` : String(message);
      fields[field] = fields[field] ? `${fields[field]}; ${text}` : text;
    }
  }
  const byCode = FIELD_OF_CODE[problem.code];
  if (Object.keys(fields).length === 0 && byCode && formFields.includes(byCode)) fields[byCode] = problem.message;
  // INVALID_INPUT's own message ("The request body is invalid.") says nothing once the fields speak.
  if (Object.keys(fields).length > 0) {
    return problem.code === 'INVALID_INPUT' || byCode ? { fields } : { fields, form: problem.message };
  }
  return { fields, form: problem.message };
}
