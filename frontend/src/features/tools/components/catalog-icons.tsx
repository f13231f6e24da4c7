import AccountTreeOutlined from '@mui/icons-material/AccountTreeOutlined';
import AutoAwesomeOutlined from '@mui/icons-material/AutoAwesomeOutlined';
import DraftsOutlined from '@mui/icons-material/DraftsOutlined';
import EventNoteOutlined from '@mui/icons-material/EventNoteOutlined';
import FactCheckOutlined from '@mui/icons-material/FactCheckOutlined';
import MailOutlineRounded from '@mui/icons-material/MailOutlineRounded';
import MenuBookOutlined from '@mui/icons-material/MenuBookOutlined';
import QuizOutlined from '@mui/icons-material/QuizOutlined';
import TableChartOutlined from '@mui/icons-material/TableChartOutlined';
import type { ReactElement } from 'react';

/** The icon of each built-in tool, by id. */
const TOOL_ICONS: Record<string, ReactElement> = {
  'lesson-planner': <EventNoteOutlined />,
  'quiz-maker': <QuizOutlined />,
  'parent-letter': <MailOutlineRounded />,
  'rubric-from-sheet': <TableChartOutlined />,
};

/** The icon of each workflow, by id. */
const WORKFLOW_ICONS: Record<string, ReactElement> = {
  'lesson-plan': <MenuBookOutlined />,
  'parent-letter-workflow': <DraftsOutlined />,
  'quiz-from-text': <FactCheckOutlined />,
};

/** The icon of a tool; a tool added later gets a generic one. */
export function toolIcon(id: string): ReactElement {
  return TOOL_ICONS[id] ?? <AutoAwesomeOutlined />;
}

/** The icon of a workflow; a workflow added later gets a generic one. */
export function workflowIcon(id: string): ReactElement {
  return WORKFLOW_ICONS[id] ?? <AccountTreeOutlined />;
}
