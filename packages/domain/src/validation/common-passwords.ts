/** Splits a whitespace-separated list. */
const words = (list: string): string[] => list.split(/\s+/u).filter((word) => word !== '');

/**
 * Most common passwords (lower case, separated by whitespace), after public leak rankings, worldwide
 * and French. Many already break the composition rule; those that pass it once capitalised
 * ("Password1", "Azerty123", "Marseille13") are the reason for the list.
 */
const COMMON_PASSWORDS = `
  123456 123456789 12345678 12345 1234567 1234567890 123123 111111 000000 1234 123 654321 666666
  121212 112233 123321 987654321 7777777 555555 88888888 11111111 00000000 147258369 159753 1q2w3e4r
  1q2w3e 1q2w3e4r5t q1w2e3r4 qwerty qwerty1 qwerty12 qwerty123 qwerty1234 qwertyuiop qwe123 qweasd
  qweasdzxc asdfgh asdfghjkl asd123 zxcvbnm zaq12wsx 1qaz2wsx 1qazxsw2 password password1 password12
  password123 password1234 password! password1! p@ssw0rd p@ssword passw0rd pass123 pass1234 passpass
  abc123 abcd1234 abc12345 abcdef abcdefg abcdefgh a1b2c3 a1b2c3d4 aa123456 aa12345678 a123456
  a12345678 iloveyou iloveyou1 iloveyou2 iloveu admin admin1 admin123 admin1234 administrator root
  toor welcome welcome1 welcome123 letmein letmein1 login login123 master master123 monkey monkey1
  dragon dragon1 football football1 baseball soccer hockey basketball superman batman spiderman
  pokemon starwars princess princess1 sunshine sunshine1 shadow michael jennifer jordan jordan23
  hunter hunter2 killer trustno1 freedom whatever charlie daniel thomas jessica ashley qazwsx
  mustang access cheese secret secret123 summer summer1 computer internet samsung google liverpool
  chelsea arsenal lovely loveme love123 flower hello hello123 hello1 test test123 test1234 testtest
  guest changeme default user user123 azertyuiop1 aaaaaa aaaaaaaa azerty azerty1 azerty12 azerty123
  azerty1234 azertyuiop azertyui azer1234 aze123 azeqsd azeqsdwxc wxcvbn qsdfghjklm azerty!
  azerty123! motdepasse motdepasse1 motdepasse123 motdepasse! mot2passe mdp123 mdpmdp bonjour
  bonjour1 bonjour12 bonjour123 bonjour2023 bonjour2024 bonjour2025 bonsoir salut salut123 coucou
  coucou123 doudou doudou123 chouchou chouchou1 loulou loulou123 nounours nounou bisous bibi titi
  toto toto123 tata tutu lolo chacha cheval chocolat chocolat1 poupette cherie mamour jetaime
  jetaime1 jetaime123 jetaimetoi amour amour123 amoureux bebe bebe123 maman maman123 papa papa123
  mamie papi famille famille1 enfant soleil soleil1 soleil123 soleil2024 etoile printemps automne
  hiver vacances vacances2024 liberte liberte1 france france1 france123 francais paris paris75
  paris123 paris2024 marseille marseille1 marseille13 om1899 allezlom lyon lyon69 toulouse
  toulouse31 bordeaux bordeaux33 nantes nantes44 lille lille59 nice06 strasbourg montpellier
  bretagne bretagne29 corse corse20 psg psg123 allezparis football13 olympique zidane zizou mbappe
  camille nicolas nicolas1 julien julien1 thomas1 alexandre antoine maxime marine manon chloe sophie
  laura pauline isabelle nathalie stephanie sandrine celine caroline christophe frederic sebastien
  philippe pierre jeanne louise lucas louis hugo emma jade sarah mohamed karim yasmine ines doudou1
  minou minette chaton chat chien kiki lapin tigrou filou pompier princesse princesse1 soleil! fleur
  patate pomme banane fraise musique vivelavie lavieestbelle jesuis moimeme motdepass secret1
  cocacola nutella pikachu dauphin ordinateur internet1 orange orange1 freebox livebox sfr bouygues
  wanadoo laposte ameli ameli123 doctolib sante sante123 hopital docteur medecin infirmier
  infirmiere pharmacie patient hygie hygie123 azertyazerty azerty2024 azerty2025 motdepasse2024
  motdepasse2025 changemoi changement nouveau nouveau1 bienvenue bienvenue1 bienvenue123
`;

/** A set of words a password must not be (the server's is far larger, see docs/security.md). */
export interface PasswordDictionary {
  has(word: string): boolean;
}

/** The product's own names: the first words a user of Hygie reaches for. */
export const PRODUCT_WORDS = ['hygie', 'telesoin', 'hygietelesoin'];

const BUILT_IN: PasswordDictionary = new Set([...words(COMMON_PASSWORDS), ...PRODUCT_WORDS]);

/** Number of passwords on the built-in list, for documentation and tests. */
export const COMMON_PASSWORD_COUNT = words(COMMON_PASSWORDS).length + PRODUCT_WORDS.length;

// Look-alike characters people swap into a word ("P@ssw0rd"); `1` stands for i or l.
const LEET: Readonly<Record<string, string>> = {
  '0': 'o',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '@': 'a',
  $: 's',
  '€': 'e',
};

/** Lower case, NFKC, without accents. */
function fold(value: string): string {
  return value.normalize('NFKC').normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * The words a password dresses up: without the digits and symbols around it ("Liverpool1",
 * "!Soleil2024"), with look-alikes read back ("P@ssw0rd!" → "password"), without accents.
 */
export function passwordBases(pw: string): string[] {
  const core = fold(pw).replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '');
  if (core === '') return [];
  const read = (one: string) => [...core].map((c) => (c === '1' ? one : (LEET[c] ?? c))).join('');
  return [...new Set([core, read('i'), read('l')])];
}

/**
 * True when `pw` is on the list, as typed (case-insensitively) or once undressed. The built-in
 * list is small enough for the browser; the server passes its full dictionary.
 */
export function isCommonPassword(pw: string, dictionary: PasswordDictionary = BUILT_IN): boolean {
  const typed = pw.normalize('NFKC').toLowerCase();
  return dictionary.has(typed) || passwordBases(pw).some((base) => dictionary.has(base));
}
