/** The training lists' count lines, in what their rows are. */
import { listCount } from '../../app/words.ts';

/**
 * "40 people" assigned one course; over every course a row is one person's assignment of one course, so "72
 * training assignments" (as the dashboard's figure counts them), never "72 courses" when 28 courses have them.
 */
export function traineesCount(shown: number, total: number, oneCourse: boolean): string {
  return oneCourse
    ? listCount(shown, total, 'person', 'people')
    : listCount(shown, total, 'training assignment');
}
