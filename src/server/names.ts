/** Word lists for the generator: realistic names of people, places, credentials and courses. */

export const FIRST_NAMES = [
  'James', 'Mary', 'Robert', 'Patricia', 'John', 'Jennifer', 'Michael', 'Linda', 'David', 'Elizabeth',
  'William', 'Barbara', 'Richard', 'Susan', 'Joseph', 'Jessica', 'Thomas', 'Sarah', 'Charles', 'Karen',
  'Christopher', 'Lisa', 'Daniel', 'Nancy', 'Matthew', 'Betty', 'Anthony', 'Margaret', 'Mark', 'Sandra',
  'Donald', 'Ashley', 'Steven', 'Kimberly', 'Paul', 'Emily', 'Andrew', 'Donna', 'Joshua', 'Michelle',
  'Kenneth', 'Carol', 'Kevin', 'Amanda', 'Brian', 'Dorothy', 'George', 'Melissa', 'Timothy', 'Deborah',
  'Ronald', 'Stephanie', 'Edward', 'Rebecca', 'Jason', 'Sharon', 'Jeffrey', 'Laura', 'Ryan', 'Cynthia',
  'Jacob', 'Kathleen', 'Gary', 'Amy', 'Nicholas', 'Angela', 'Eric', 'Shirley', 'Jonathan', 'Anna',
  'Stephen', 'Brenda', 'Larry', 'Pamela', 'Justin', 'Emma', 'Scott', 'Nicole', 'Brandon', 'Helen',
  'Benjamin', 'Samantha', 'Samuel', 'Katherine', 'Gregory', 'Christine', 'Alexander', 'Debra', 'Frank', 'Rachel',
  'José', 'María', 'Luis', 'Ana', 'Carlos', 'Sofía', 'Chloé', 'Zoë', 'Björn', 'Aisha',
  'Mohammed', 'Fatima', 'Wei', 'Mei', 'Hiroshi', 'Yuki', 'Priya', 'Arjun', 'Olga', 'Dmitri',
];

export const LAST_NAMES = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez',
  'Hernandez', 'Lopez', 'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin',
  'Lee', 'Perez', 'Thompson', 'White', 'Harris', 'Sanchez', 'Clark', 'Ramirez', 'Lewis', 'Robinson',
  'Walker', 'Young', 'Allen', 'King', 'Wright', 'Scott', 'Torres', 'Nguyen', 'Hill', 'Flores',
  'Green', 'Adams', 'Nelson', 'Baker', 'Hall', 'Rivera', 'Campbell', 'Mitchell', 'Carter', 'Roberts',
  'Gomez', 'Phillips', 'Evans', 'Turner', 'Diaz', 'Parker', 'Cruz', 'Edwards', 'Collins', 'Reyes',
  'Stewart', 'Morris', 'Morales', 'Murphy', 'Cook', 'Rogers', 'Gutierrez', 'Ortiz', 'Morgan', 'Cooper',
  'Peterson', 'Bailey', 'Reed', 'Kelly', 'Howard', 'Ramos', 'Kim', 'Cox', 'Ward', 'Richardson',
  "O'Brien", 'Müller', 'Schmidt', 'Núñez', 'Van der Berg', 'Kowalski', 'Novak', 'Ivanova', 'Tanaka', 'Chen',
  'Patel', 'Singh', 'Okafor', 'Haddad', 'Larsen', 'Lindqvist', 'Dubois', 'Rossi', 'Silva', 'Costa',
];

export const SITE_NAMES = ['Riverside Plant', 'Northgate Distribution Center', 'Harbor Terminal', 'Summit Clinic'];
export const FOREIGN_SITE_NAME = 'Other Customer HQ';

/** Profile categories and the groups each one offers. */
export const PROFILE_CATEGORIES: readonly { name: string; groups: readonly string[] }[] = [
  { name: 'Department', groups: ['Operations', 'Maintenance', 'Warehouse', 'Quality', 'Safety', 'Logistics', 'Administration', 'Engineering'] },
  { name: 'Shift', groups: ['Day', 'Evening', 'Night', 'Weekend'] },
  { name: 'Location', groups: ['Building A', 'Building B', 'Yard', 'Dock', 'Field Office', 'Annex'] },
  { name: 'Role', groups: ['Operator', 'Technician', 'Driver', 'Lead', 'Inspector', 'Clerk', 'Nurse', 'Electrician'] },
  { name: 'Employment', groups: ['Full time', 'Part time', 'Contractor', 'Seasonal'] },
];

/** Application features a supervisor can be given access to (accessID = index + 1). */
export const MODULES: readonly { moduleName: string; functionName: string }[] = [
  { moduleName: 'Users', functionName: 'Manage users' },
  { moduleName: 'Reports', functionName: 'Run reports' },
  { moduleName: 'Credentials', functionName: 'Manage credentials' },
  { moduleName: 'Training', functionName: 'Assign training' },
  { moduleName: 'Groups', functionName: 'Manage groups' },
  { moduleName: 'Certificates', functionName: 'Print certificates' },
  { moduleName: 'Messaging', functionName: 'Send messages' },
  { moduleName: 'Settings', functionName: 'Edit site settings' },
];

export const CREDENTIAL_CATEGORIES = [
  'Licenses', 'Certifications', 'Medical', 'Safety Cards', 'Equipment Qualifications', 'Background Checks', 'Permits', 'Vaccinations',
];

export const CREDENTIAL_WORDS = [
  'Forklift Operator', 'First Aid', 'CPR', 'Confined Space Entry', 'Fall Protection', 'Hazmat Handling', 'Commercial Driver',
  'Crane Operator', 'Welding', 'Electrical Safety', 'Respirator Fit Test', 'Hearing Test', 'Drug Screen', 'Lockout Tagout',
  'Scaffold Builder', 'Aerial Lift', 'Food Handler', 'Bloodborne Pathogens', 'Fire Watch', 'Rigging', 'TWIC Card',
  'Hepatitis B', 'Tuberculosis Test', 'Boiler Operator', 'Pesticide Applicator',
];
export const CREDENTIAL_LEVELS = ['', 'Level 1', 'Level 2', 'Advanced', 'Instructor', 'Renewal'];

export const COURSE_TOPICS = [
  'Workplace Safety', 'Harassment Prevention', 'Fire Extinguisher Use', 'Ladder Safety', 'Hazard Communication',
  'Emergency Evacuation', 'Ergonomics', 'Data Privacy', 'Code of Conduct', 'Defensive Driving', 'Spill Response',
  'Heat Illness Prevention', 'PPE Basics', 'Machine Guarding', 'Incident Reporting', 'Customer Service',
  'Cybersecurity Awareness', 'Infection Control', 'Manual Handling', 'Electrical Awareness',
];
export const COURSE_SUFFIXES = ['', 'Refresher', 'Annual', 'Part 2', 'for Supervisors', 'Advanced', 'Introduction'];

export const ASSIGNMENT_METHODS = ['Assigned by supervisor', 'Assigned by rule', 'Self enrolled', 'Assigned by API', 'Curriculum'];

/** Hostile strings for security tests (`hostile: true`): they must render as inert text. */
export const HOSTILE = {
  script: '<script>alert("fieldbook-xss")</script>',
  imgOnerror: '<img src=x onerror="alert(\'fieldbook-xss\')">',
  svgOnload: '<svg onload=alert(1)>',
  javascriptUrl: 'javascript:alert(document.domain)',
  dataUrl: 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  rtlOverride: 'Nor\u202Emal\u202C User',
  control: 'Ctrl\u0000\u0007\u001b[31mChars\u0008',
  long: `Long${'W'.repeat(5000)}`,
  quote: '"><iframe src="javascript:alert(1)"></iframe>',
};
