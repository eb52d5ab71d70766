import type { DefaultValues, FieldPath } from 'react-hook-form';
import type { z } from 'zod';
import type { createProjectBody, Project, UpdateProjectBody } from '@terrafund/contracts';

/** The admin form is the API's own body schema (one source for its rules and messages). */
export type ProjectFormInput = z.input<typeof createProjectBody>;
export type ProjectFormOutput = z.output<typeof createProjectBody>;

/**
 * A new project: nothing chosen, so every required field says so on submit. Numbers are left empty (read
 * as NaN, which the schema refuses with the field's message) rather than 0, which could pass unnoticed.
 */
export const emptyProjectForm: DefaultValues<ProjectFormInput> = {
  title: '',
  description: '',
  location: '',
  status: 'available',
  images: [],
  startDate: null,
  endDate: null,
  details: { features: [], propertyType: '', size: '', documents: [] },
};

/** The stored project in the form's shape (and the schema's output shape: what an unchanged form submits). */
export function formValuesOf(project: Project): ProjectFormOutput {
  const { details } = project;
  return {
    title: project.title,
    description: project.description,
    location: project.location,
    type: project.type,
    status: project.status,
    images: [...project.images],
    target: project.target,
    roi: project.roi,
    term: project.term,
    minInvestment: project.minInvestment,
    startDate: project.startDate ? project.startDate.slice(0, 10) : null,
    endDate: project.endDate ? project.endDate.slice(0, 10) : null,
    details: {
      features: [...details.features],
      propertyType: details.propertyType,
      size: details.size,
      units: details.units,
      yearBuilt: details.yearBuilt,
      occupancyRate: details.occupancyRate,
      paymentSchedule: details.paymentSchedule,
      documents: details.documents.map(({ name, url }) => ({ name, url })),
    },
  };
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const keysA = Object.keys(a);
    const keysB = Object.keys(b);
    return (
      keysA.length === keysB.length &&
      keysA.every((key) => sameValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]))
    );
  }
  // A date cleared to null and one never set (undefined) are the same "no date".
  return (a ?? null) === (b ?? null);
}

/**
 * The PATCH body: only the fields of the form that differ from the stored project, so two admins editing
 * different fields do not undo each other's work. `details` is sent whole when any part of it changed,
 * because the API replaces it as one object.
 */
export function changedFields(stored: ProjectFormOutput, edited: ProjectFormOutput): UpdateProjectBody {
  const body: Record<string, unknown> = {};
  for (const key of Object.keys(edited) as (keyof ProjectFormOutput)[]) {
    if (!sameValue(stored[key], edited[key])) body[key] = edited[key];
  }
  return body as UpdateProjectBody;
}

const topLevel = new Set(['title', 'description', 'location', 'type', 'status', 'images', 'target', 'roi', 'term', 'minInvestment', 'startDate', 'endDate']);
const detailFields = new Set(['propertyType', 'size', 'units', 'yearBuilt', 'occupancyRate', 'paymentSchedule', 'features']);

/**
 * The form field a server validation path ("details.units", "images.2", "details.documents.1.url") is
 * about, or null when the form has no field for it (the message is then only toasted).
 */
export function formFieldFor(path: string): FieldPath<ProjectFormInput> | null {
  const [head, second, third] = path.split('.');
  if (head && topLevel.has(head)) return head as FieldPath<ProjectFormInput>;
  if (head !== 'details' || !second) return null;
  if (detailFields.has(second)) return `details.${second}` as FieldPath<ProjectFormInput>;
  if (second === 'documents') return third !== undefined && /^\d+$/.test(third) ? `details.documents.${Number(third)}.name` : 'details.documents';
  return null;
}

/** The first message anywhere in a field's errors: a list's own error, or the first of its items'. */
export function firstMessage(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const { message } = error as { message?: unknown };
  if (typeof message === 'string' && message) return message;
  for (const [key, value] of Object.entries(error)) {
    // `ref` is the field's element; `type` and `types` name the rule, not the message.
    if (key === 'ref' || key === 'type' || key === 'types') continue;
    const found = firstMessage(value);
    if (found) return found;
  }
  return undefined;
}
