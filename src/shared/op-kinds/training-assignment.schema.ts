/**
 * The payloads of the training assignment kinds, checked at the IPC boundary (their definitions:
 * ./training-assignment.ts).
 */
import { z } from 'zod';
import { dateInput, id, text as textField } from './payload-fields.ts';

export const trainingAssignmentCreateSchema = z.object({
  kind: z.literal('trainingAssignment.create'),
  userid: id,
  courseid: id,
  fields: z.object({ duedate: dateInput, startdate: dateInput, assignmentmethod: textField(100) }).partial(),
});
export const trainingAssignmentUpdateSchema = z.object({
  kind: z.literal('trainingAssignment.update'),
  transcriptid: id,
  changes: z.object({ duedate: dateInput, startdate: dateInput, coursestatus: textField(50) }).partial(),
});
export const trainingAssignmentDeleteSchema = z.object({
  kind: z.literal('trainingAssignment.delete'),
  transcriptid: id,
});
