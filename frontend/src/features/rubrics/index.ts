/** The rubric screens: the list at `/rubrics` and the editor at `/rubrics/new` and `/rubrics/:rubricId`. */
export { RubricEditorPage } from './components/RubricEditorPage';
export { RubricsPage } from './components/RubricsPage';
