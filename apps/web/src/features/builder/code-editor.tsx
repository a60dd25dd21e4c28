// The code editor: CodeMirror 6, loaded lazily (its own chunk) by code-pane.tsx.
import { css } from '@codemirror/lang-css';
import { html } from '@codemirror/lang-html';
import { javascript } from '@codemirror/lang-javascript';
import { json } from '@codemirror/lang-json';
import CodeMirror, { EditorView, type Extension } from '@uiw/react-codemirror';
import { useMemo } from 'react';
import type { EditorLanguage } from './language';

function languageExtension(language: EditorLanguage): Extension[] {
  switch (language) {
    case 'javascript':
      return [javascript()];
    case 'jsx':
      return [javascript({ jsx: true })];
    case 'typescript':
      return [javascript({ typescript: true })];
    case 'tsx':
      return [javascript({ jsx: true, typescript: true })];
    case 'css':
      return [css()];
    case 'html':
      return [html()];
    case 'json':
      return [json()];
    case 'text':
      return [];
  }
}

/** The editable area is named 'Code editor' for screen readers and end-to-end tests. */
const accessibleName = EditorView.contentAttributes.of({ 'aria-label': 'Code editor' });
const fillHeight = EditorView.theme({
  '&': { height: '100%', fontSize: '13px' },
  '.cm-scroller': { fontFamily: 'var(--font-mono)', lineHeight: '1.55' },
});

export interface CodeEditorProps {
  value: string;
  language: EditorLanguage;
  dark: boolean;
  onChange: (value: string) => void;
}

export default function CodeEditor({ value, language, dark, onChange }: CodeEditorProps) {
  const extensions = useMemo(() => [...languageExtension(language), accessibleName, fillHeight, EditorView.lineWrapping], [language]);
  return (
    <CodeMirror
      value={value}
      height="100%"
      className="h-full min-h-0"
      theme={dark ? 'dark' : 'light'}
      extensions={extensions}
      onChange={onChange}
      basicSetup={{ foldGutter: true, highlightActiveLine: true, autocompletion: true }}
    />
  );
}
