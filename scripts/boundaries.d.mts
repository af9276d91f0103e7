export declare function areaOf(rel: string): string | null;
export declare function targetArea(spec: string, fromRel: string): string | null;
export declare function checkImport(fromRel: string, spec: string): string | null;
export declare function checkTemplateImport(fromRel: string, spec: string): string | null;
