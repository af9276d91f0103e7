export declare function callsOf(text: string): { calls: Set<string>; unread: string[] };
export declare function routesOf(text: string): Set<string>;
export declare function compare(
  texts: { platform: string; workflow: string },
  list: { calls: { name: string; note?: string }[]; routes: { path: string }[] },
): {
  callsNotListed: string[];
  listedNotNamed: string[];
  readByHand: string[];
  routesNotListed: string[];
  listedRoutesNotNamed: string[];
  unread: string[];
};
