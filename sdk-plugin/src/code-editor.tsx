/**
 * A code editor shared by the plugins (node functions of the decision graph, reward files):
 * Monaco with Python highlighting, bundled locally (`./monaco`, never from a CDN) and loaded
 * with `import()` when an editor mounts, so Monaco ships once in the build. Until it is ready,
 * or where it cannot run (jsdom in tests), a monospace textarea edits the same text.
 */
import { useEffect, useRef, useState } from 'react';
import { TextArea } from '@blueprintjs/core';
import { useTheme } from './react';

/** A problem shown on a line of the code (1-based), e.g. the error of a run. */
export interface CodeMarker {
  line: number;
  message: string;
}

/** Props of {@link CodeEditor}. */
export interface CodeEditorProps {
  value: string;
  onChange(value: string): void;
  /** Accessible name. */
  label: string;
  /** `data-testid` of the textarea (until Monaco is ready); the box gets `<testId>-box`. */
  testId?: string;
  /** Monaco language id; default `python`. */
  language?: string;
  /** Lines marked as errors (squiggles and gutter). */
  markers?: readonly CodeMarker[];
  /** Height of the Monaco editor, px; default 260. */
  height?: number;
  /** Ctrl/Cmd+S inside the editor. */
  onSave?(): void;
}

type MonacoModule = typeof import('./monaco')['monaco'];
type Editor = ReturnType<MonacoModule['editor']['create']>;

const canRunMonaco = () => typeof navigator !== 'undefined' && !/jsdom/i.test(navigator.userAgent) && typeof Worker !== 'undefined';

/** See the module comment. One Monaco editor per mount; `value` changes from outside are pushed in. */
export function CodeEditor(props: CodeEditorProps) {
  const theme = useTheme();
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<Editor | null>(null);
  const monaco = useRef<MonacoModule | null>(null);
  const [ready, setReady] = useState(false);
  const latest = useRef(props);
  latest.current = props;

  useEffect(() => {
    if (!canRunMonaco()) return;
    let disposed = false;
    void import('./monaco').then(
      (m) => {
        if (disposed || !host.current) return;
        const ed = m.monaco.editor.create(host.current, {
          value: latest.current.value,
          language: latest.current.language ?? 'python',
          theme: theme === 'dark' ? 'vs-dark' : 'vs',
          automaticLayout: true,
          minimap: { enabled: false },
          fontSize: 13,
          tabSize: 4,
          insertSpaces: true,
          // Enter keeps the line's indentation and nothing more: with the language's rules
          // (indent after `def ...:`) it changed with when those rules had loaded, which made
          // typed code come out differently from one load to the next.
          autoIndent: 'keep',
          scrollBeyondLastLine: false,
          glyphMargin: true,
          ariaLabel: latest.current.label,
        });
        ed.onDidChangeModelContent(() => latest.current.onChange(ed.getValue()));
        ed.addCommand(m.monaco.KeyMod.CtrlCmd | m.monaco.KeyCode.KeyS, () => latest.current.onSave?.());
        monaco.current = m.monaco;
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
    // created once per mount; value, theme and markers are pushed below
  }, []);

  useEffect(() => {
    monaco.current?.editor.setTheme(theme === 'dark' ? 'vs-dark' : 'vs');
  }, [theme, ready]);

  useEffect(() => {
    const ed = editor.current;
    if (ed && ed.getValue() !== props.value) ed.setValue(props.value);
  }, [props.value, ready]);

  useEffect(() => {
    const ed = editor.current;
    const m = monaco.current;
    const model = ed?.getModel();
    if (!ed || !m || !model) return;
    const lines = model.getLineCount();
    m.editor.setModelMarkers(
      model,
      'decisio',
      (props.markers ?? []).map((k) => {
        const line = Math.max(1, Math.min(lines, k.line));
        return { severity: m.MarkerSeverity.Error, message: k.message, startLineNumber: line, startColumn: 1, endLineNumber: line, endColumn: model.getLineMaxColumn(line) };
      }),
    );
    const first = props.markers?.[0];
    if (first) ed.revealLineInCenterIfOutsideViewport(first.line);
  }, [props.markers, ready]);

  return (
    <div className="dc-code-editor" data-testid={props.testId ? `${props.testId}-box` : undefined} data-ready={ready ? 'monaco' : 'textarea'} style={{ minHeight: 120, display: 'flex', flexDirection: 'column' }}>
      <div ref={host} style={{ display: ready ? 'block' : 'none', width: '100%', height: props.height ?? 260 }} />
      {!ready && (
        <TextArea
          fill
          aria-label={props.label}
          data-testid={props.testId}
          spellCheck={false}
          style={{ fontFamily: 'var(--bp-typography-family-mono, monospace)', minHeight: props.height ?? 260 }}
          value={props.value}
          onChange={(e) => props.onChange(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 's' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              props.onSave?.();
            }
          }}
        />
      )}
    </div>
  );
}
