/**
 * Blueprint's NumericInput with its stepper buttons named in the page's language: Blueprint
 * names them "increment" and "decrement" in English whatever the language.
 */
import { useLayoutEffect, useRef, type ComponentProps } from 'react';
import { Classes, mergeRefs, NumericInput as BlueprintNumericInput } from '@blueprintjs/core';
import { localeServiceRef } from './services';
import { useLocale, useService } from './react';

/**
 * Blueprint's `NumericInput` (same props), its increase and decrease buttons labelled with the
 * workbench's `workbench:numericInput.increment` / `decrement` texts, "Increase"/"Decrease"
 * ("增加"/"减少"), renamed when the language changes. Use it in place of Blueprint's everywhere.
 */
export function NumericInput(props: ComponentProps<typeof BlueprintNumericInput>) {
  useLocale(); // a change of language renders again, and the effect renames the buttons
  const i18n = useService(localeServiceRef);
  const own = useRef<HTMLInputElement | null>(null);
  // After every render: Blueprint writes its English names only when it creates the buttons
  // (React leaves an attribute whose prop did not change), e.g. when `buttonPosition` changes.
  useLayoutEffect(() => {
    const root = own.current?.closest(`.${Classes.NUMERIC_INPUT}`);
    const buttons = root?.querySelectorAll<HTMLButtonElement>(`.${Classes.BUTTON_GROUP} > button`);
    if (!buttons || buttons.length !== 2) return;
    buttons[0]!.setAttribute('aria-label', i18n.t('workbench:numericInput.increment'));
    buttons[1]!.setAttribute('aria-label', i18n.t('workbench:numericInput.decrement'));
  });
  return <BlueprintNumericInput {...props} inputRef={mergeRefs(own, props.inputRef)} />;
}
