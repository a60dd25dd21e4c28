// One Jest run over every project; each project keeps its own config next to its code.
export default {
  projects: ['<rootDir>/libs/domain', '<rootDir>/libs/offline-assistant', '<rootDir>/libs/adapters', '<rootDir>/apps/api', '<rootDir>/apps/web', '<rootDir>/tools'],
};
