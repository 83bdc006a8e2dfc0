/**
 * The payloads of the credential assignment kinds, checked at the IPC boundary (their definitions:
 * ./credential-assignment.ts).
 */
import { z } from 'zod';
import { dateInput, id, text as textField } from './payload-fields.ts';

const assignmentFields = z
  .object({
    startdate: dateInput,
    expirationdate: dateInput,
    credentialnumber: textField(200),
    notes: textField(2000),
    status: textField(50),
  })
  .partial();

export const credentialAssignmentCreateSchema = z.object({
  kind: z.literal('credentialAssignment.create'),
  credentialid: id,
  userid: id,
  fields: assignmentFields,
});
export const credentialAssignmentUpdateSchema = z.object({
  kind: z.literal('credentialAssignment.update'),
  credentialid: id,
  userid: id,
  changes: assignmentFields,
});
export const credentialAssignmentDeleteSchema = z.object({
  kind: z.literal('credentialAssignment.delete'),
  credentialid: id,
  userid: id,
});
