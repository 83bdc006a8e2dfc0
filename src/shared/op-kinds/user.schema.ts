/**
 * The payloads of the user kinds, checked at the IPC boundary (their definitions:
 * ./user.ts).
 */
import { z } from 'zod';
import { id, text } from './payload-fields.ts';

export const userUpdateSchema = z.object({
  kind: z.literal('user.update'),
  userid: id,
  changes: z
    .object({
      username: text(200),
      firstname: text(200),
      lastname: text(200),
      status: text(50),
      employeeid: text(100),
    })
    .partial(),
});

export const userCreateSchema = z.object({
  kind: z.literal('user.create'),
  siteid: id,
  fields: z.object({
    username: text(200),
    password: text(200).optional(),
    firstname: text(200),
    lastname: text(200),
    employeeid: text(100).optional(),
    status: text(50).optional(),
  }),
});
