import { useCallback } from 'react';
import { valueKindOf } from '../format';
import { useDataT } from '../i18n';

/** A column type (the data worker's kind or DuckDB's type) in the user's words; a type without a plain word as it is. */
export function useValueKindLabel(): (type: string) => string {
  const { t } = useDataT();
  return useCallback(
    (type: string) => {
      const kind = valueKindOf(type);
      return kind ? t(`valueKinds.${kind}`) : type;
    },
    [t],
  );
}
