/** The zod field types op payloads are made of (bounded, as everything crossing the IPC boundary is). */
import { z } from 'zod';

export const dateInput = z.string().max(32);
export const text = (max = 500) => z.string().max(max);
export const id = z.number().int().positive();
