/**
 * Which column holds which field: header names matched ignoring case, spaces
 * and punctuation, with the spellings HR systems use.
 */
export const IMPORT_FIELDS = [
  'username',
  'firstname',
  'lastname',
  'employeeid',
  'status',
  'email',
  'group',
  'startdate',
  'expirationdate',
  'credentialnumber',
  'duedate',
] as const;
/** the columns that give a new person's credential and course their values, row by row */
export const DATE_FIELDS = ['startdate', 'expirationdate', 'duedate'] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];
export type ColumnMapping = Partial<Record<ImportField, number>>;

export const FIELD_LABELS: Record<ImportField, string> = {
  username: 'Username',
  firstname: 'First name',
  lastname: 'Last name',
  employeeid: 'Employee ID',
  status: 'Status',
  email: 'E-mail',
  group: 'Profile group',
  startdate: 'Credential start date',
  expirationdate: 'Credential expiration date',
  credentialnumber: 'Credential number',
  duedate: 'Course due date',
};

/**
 * The one table of header names: English, German, French and Spanish (with and without accents: HR exports drop
 * them). "Nom" is French for the last name, "Nombre" Spanish for the first name.
 */
const SYNONYMS: Record<ImportField, string[]> = {
  username: [
    'username',
    'user name',
    'login',
    'login name',
    'user',
    'user id',
    'userid',
    'account name',
    'network id',
    'benutzername',
    'benutzer',
    'anmeldename',
    'identifiant',
    "nom d'utilisateur",
    'login utilisateur',
    'usuario',
    'nombre de usuario',
  ],
  firstname: [
    'firstname',
    'first name',
    'first',
    'given name',
    'forename',
    'forenames',
    'christian name',
    'vorname',
    'prénom',
    'prenom',
    'nombre',
    'nombres',
  ],
  lastname: [
    'lastname',
    'last name',
    'last',
    'surname',
    'family name',
    'nachname',
    'familienname',
    'nom',
    'nom de famille',
    'apellido',
    'apellidos',
  ],
  employeeid: [
    'employeeid',
    'employee id',
    'employeenumber',
    'employee number',
    'employee no',
    'employee #',
    'emp id',
    'emp no',
    'emp #',
    'badge',
    'badge number',
    'staff id',
    'staff number',
    'staff no',
    'personnel number',
    'payroll number',
    'employee code',
    'personalnummer',
    'personalnr',
    'mitarbeiternummer',
    'mitarbeiter nr',
    'matricule',
    'numéro de matricule',
    'numero de matricule',
    'numéro employé',
    'número de empleado',
    'numero de empleado',
    'nº de empleado',
    'legajo',
  ],
  status: [
    'status',
    'user status',
    'account status',
    'employment status',
    'state',
    'beschäftigungsstatus',
    'statut',
    'estado',
    'situación',
    'situacion',
  ],
  email: [
    'email',
    'e-mail',
    'email address',
    'e-mail address',
    'work email',
    'work e-mail',
    'business email',
    'primary email',
    'mail',
    'e-mail-adresse',
    'mailadresse',
    'courriel',
    'adresse e-mail',
    'adresse électronique',
    'correo',
    'correo electrónico',
    'correo electronico',
  ],
  // only explicit names: an HR export's own "Group", "Start date" or "Due date" is not guessed to be these
  group: ['profile group', 'profile group name'],
  startdate: ['credential start date', 'credential start'],
  expirationdate: [
    'credential expiration date',
    'credential expiration',
    'credential expiry date',
    'credential expiry',
  ],
  credentialnumber: ['credential number', 'credential no'],
  duedate: ['course due date', 'training due date'],
};

/** "Employee No." → "employeeno", "Employee #" → "employeeno", "E-mail" → "email" */
export function squashHeader(header: string): string {
  return header
    .normalize('NFKC')
    .toLowerCase()
    .replace(/#/g, ' no ')
    .replace(/\bnumber\b|\bnum\b|\bnbr\b/g, ' no ')
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

const BY_SQUASHED = new Map<string, ImportField>();
for (const field of IMPORT_FIELDS)
  for (const synonym of SYNONYMS[field]) BY_SQUASHED.set(squashHeader(synonym), field);

export function fieldOfHeader(header: string): ImportField | undefined {
  return header ? BY_SQUASHED.get(squashHeader(header)) : undefined;
}

/** Guess which column holds which field from the header names (the first column of a name wins). */
export function guessMapping(headers: readonly string[]): ColumnMapping {
  const mapping: ColumnMapping = {};
  headers.forEach((header, index) => {
    const field = fieldOfHeader(header);
    if (field && mapping[field] === undefined) mapping[field] = index;
  });
  return mapping;
}

/** Named columns no field takes: listed as ignored. */
export function ignoredColumns(headers: readonly string[], mapping: ColumnMapping): number[] {
  const used = new Set(Object.values(mapping));
  return headers.map((h, i) => (h !== '' && !used.has(i) ? i : -1)).filter((i) => i >= 0);
}
