import type { SvgIconComponent } from '@mui/icons-material';

/**
 * What every screen may know about an assignment type without drawing it: its names, its look in
 * the library, its grading process and the features it takes part in. One file per type in this
 * folder fills it in; `lib/assignment-type.ts` lists them.
 */
export interface AssignmentTypeInfo {
  /** How the type is named on screen ("Rubric feedback"). */
  label: string;
  /** What it is, in a few words (the New assignment menu). */
  description: string;
  Icon: SvgIconComponent;
  /** Text and icon colour in the library; the chip and icon backgrounds are this at low opacity. */
  color: string;
  tint: string;
  /** Its place in the library's New assignment menu (lowest first). */
  menuRank: number;
  /** The heading of its definition on the assignment page ("Questions"). */
  definitionTitle: string;
  /** Its grading process (`lambda/gradeOnePub`'s `processName`). */
  processName: string;
  /**
   * What the AI does to a submission of this type, in words: the run buttons ("Grade all",
   * "Annotate all"), the progress ("Grading…"), and the done state ("graded", which is also the
   * status a result goes back to when a teacher un-reviews it).
   */
  verbs: { run: 'Grade' | 'Annotate'; running: 'Grading' | 'Annotating'; done: 'graded' | 'annotated' };
  /**
   * How its results score criteria, for the class summary, the agreement check and the review
   * screen's Benchmark switch: `met` (each criterion met or not), `earned` (points per criterion),
   * or null (no criteria: neither panel, no switch).
   */
  criteria: 'met' | 'earned' | null;
  /** Submissions can be imported from a CSV file, one column per question. */
  csvImport: boolean;
  /** A handwritten assignment of this type marks answer boxes on the page images. */
  answerBoxes: boolean;
  /** The review screen takes the number keys that toggle criteria. */
  criterionKeys: boolean;
}
