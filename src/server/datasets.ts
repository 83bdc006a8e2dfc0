/** Named dataset sizes of the generator, and the ids the server's data is laid out with. */
export type DatasetName = 'tiny' | 'demo' | 'm' | 'l' | 'xl' | 'multi';
export const DATASET_NAMES: readonly DatasetName[] = ['tiny', 'demo', 'm', 'l', 'xl', 'multi'];

export interface DatasetSize {
  /** sites of our customer (the token's customer) */
  sites: number;
  users: number;
  credentials: number;
  credentialAssignments: number;
  courses: number;
  trainingAssignments: number;
  profileCategories: number;
  credentialCategories: number;
  /** every site the same share (default: the first site 60%, the others the rest) */
  evenSites?: boolean;
}

export const DATASETS: Record<DatasetName, DatasetSize> = {
  tiny: {
    sites: 1,
    users: 40,
    credentials: 6,
    credentialAssignments: 80,
    courses: 8,
    trainingAssignments: 120,
    profileCategories: 3,
    credentialCategories: 2,
  },
  demo: {
    sites: 2,
    users: 300,
    credentials: 8,
    credentialAssignments: 1_260,
    courses: 30,
    trainingAssignments: 3_000,
    profileCategories: 4,
    credentialCategories: 4,
  },
  m: {
    sites: 2,
    users: 5_000,
    credentials: 60,
    credentialAssignments: 20_000,
    courses: 100,
    trainingAssignments: 60_000,
    profileCategories: 5,
    credentialCategories: 6,
  },
  l: {
    sites: 2,
    users: 20_000,
    credentials: 150,
    credentialAssignments: 100_000,
    courses: 300,
    trainingAssignments: 400_000,
    profileCategories: 5,
    credentialCategories: 8,
  },
  /**
   * A customer of many sites (issue 28): 5,000 people per site. About 7.3 million
   * rows: generate it into a file (`--db`), never in CI (docs/decisions.md).
   */
  xl: {
    sites: 40,
    users: 200_000,
    credentials: 1_000,
    credentialAssignments: 1_000_000,
    courses: 2_000,
    trainingAssignments: 5_000_000,
    profileCategories: 5,
    credentialCategories: 8,
    evenSites: true,
  },
  /**
   * A small customer of many sites (issue 28's integration tests, and the scale benchmark tried quickly): six sites of
   * 200 people.
   */
  multi: {
    sites: 6,
    users: 1_200,
    credentials: 24,
    credentialAssignments: 2_400,
    courses: 24,
    trainingAssignments: 3_600,
    profileCategories: 3,
    credentialCategories: 2,
    evenSites: true,
  },
};

/** The other customer's one small site, so its token has records of its own. */
export const FOREIGN_SIZE: DatasetSize = {
  sites: 1,
  users: 5,
  credentials: 2,
  credentialAssignments: 4,
  courses: 2,
  trainingAssignments: 5,
  profileCategories: 1,
  credentialCategories: 1,
};

export const OUR_CUSTOMER = 1;
export const OTHER_CUSTOMER = 2;
export const FIRST_SITE_ID = 101;
export const FOREIGN_SITE_ID = 901;
/** The feature the feature-limited token is limited to. */
export const FEATURE_MODULE_ID = 3;

export function isDatasetName(value: string): value is DatasetName {
  return (DATASET_NAMES as readonly string[]).includes(value);
}
