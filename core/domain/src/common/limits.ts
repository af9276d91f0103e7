/** Business constants and limits (spec platform §9, workflow §9). Sizes in bytes, times in ms. */
export const LIMITS = {
  requestTimeoutMs: 30_000,
  terminalTimeoutMs: 30_000,
  notificationMs: 3_000,
  storageCapBytes: 500 * 1024 ** 3,
  csvMaxBytes: 2 * 1024 ** 3,
  fileNameMax: 50,
  codeUploadMaxBytes: 10 * 1024 ** 2,
  deviceFileMaxBytes: 1024 ** 2,
  usernameMin: 5,
  usernameMax: 20,
  passwordMin: 8,
  passwordMax: 32,
  verifyCodeLength: 6,
  projectNameMax: 20,
  projectInfoMax: 200,
  solutionNameMax: 50,
  datasetNameMax: 30,
  rewardNameMax: 20,
  descriptionMax: 200,
  popupEditorMax: 20,
  schemesPerSolution: 26,
  trainingMaxDurationMs: 7 * 24 * 3600 * 1000,
  searchCountMax: 10_000,
  simulationStepMax: 10_000,
  reportIntegerDigits: 15,
  reportDecimals: 2,
} as const;

/** Dialog widths in px. */
export const DIALOG_WIDTH = { xs: 320, sm: 480, md: 640, lg: 720, xl: 960 } as const;

/** Tag colours of projects. */
export const TAG_COLOURS = ['ocean', 'volcano', 'gold', 'green', 'cyan', 'blue', 'purple'] as const;
export type TagColour = (typeof TAG_COLOURS)[number];
