/**
 * A code editor for node functions: Monaco (Python highlighting) loaded with `import()` when
 * the editor opens; until it is ready, or where it cannot run (jsdom in tests), a monospace
 * textarea edits the same text.
 */
import { useEffect, useRef, useState } from 'react';
import { TextArea } from '@blueprintjs/core';
import { useTheme } from '@decisio/sdk-plugin';

export interface CodeEditorProps {
  value: string;
  onChange(value: string): void;
  /** Accessible name. */
  label: string;
  testId?: string;
}

type MonacoEditor = { getValue(): string; setValue(v: string): void; dispose(): void; onDidChangeModelContent(cb: () => void): unknown };

const canRunMonaco = () => typeof navigator !== 'undefined' && !/jsdom/i.test(navigator.userAgent) && typeof Worker !== 'undefined';

export function CodeEditor(props: CodeEditorProps) {
  const theme = useTheme();
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<MonacoEditor | null>(null);
  const [ready, setReady] = useState(false);
  const onChange = useRef(props.onChange);
  onChange.current = props.onChange;

  useEffect(() => {
    if (!canRunMonaco()) return;
    let disposed = false;
    void import('./monaco').then(
      ({ monaco }) => {
        if (disposed || !host.current) return;
        const ed = monaco.editor.create(host.current, {
          value: props.value,
          language: 'python',
          theme: theme === 'dark' ? 'vs-dark' : 'vs',
          automaticLayout: true,
          minimap: { enabled: false },
          fontSize: 13,
          tabSize: 4,
          insertSpaces: true,
          scrollBeyondLastLine: false,
          ariaLabel: props.label,
        });
        ed.onDidChangeModelContent(() => onChange.current(ed.getValue()));
        editor.current = ed;
        setReady(true);
      },
      () => undefined, // stays a textarea
    );
    return () => {
      disposed = true;
      editor.current?.dispose();
      editor.current = null;
    };
    // created once per mount; value changes from outside are pushed below
  }, []);

  useEffect(() => {
    void import('./monaco').then(({ monaco }) => monaco.editor.setTheme(theme === 'dark' ? 'vs-dark' : 'vs'), () => undefined);
  }, [theme, ready]);

  useEffect(() => {
    const ed = editor.current;
    if (ed && ed.getValue() !== props.value) ed.setValue(props.value);
  }, [props.value]);

  return (
    <div className="dc-pattern-code">
      <div ref={host} className="dc-pattern-monaco" style={{ display: ready ? 'block' : 'none' }} />
      {!ready && (
        <TextArea
          className="dc-pattern-textarea"
          fill
          aria-label={props.label}
          data-testid={props.testId}
          spellCheck={false}
          value={props.value}
          onChange={(e) => props.onChange(e.currentTarget.value)}
        />
      )}
    </div>
  );
}
