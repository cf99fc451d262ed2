import type { Language, ValidationMessage } from '@hygie/domain';

// The `text` of each `validation_error` field: the web translates the key (`message`) itself, but
// API clients and the platforms read words, so every key has them in each language (the same as
// the web's `validation` namespace).
type Catalogue = Record<ValidationMessage, string>;

const fr: Catalogue = {
  field_required: 'Ce champ est obligatoire.',
  field_invalid: 'Valeur invalide.',
  too_long: 'Ce texte est trop long.',
  too_short: 'Ce texte est trop court.',
  too_many_items: 'Il y a trop d’éléments.',
  too_few_items: 'Il n’y a pas assez d’éléments.',
  choice_invalid: 'Ce choix n’est pas proposé.',
  unknown_field: 'Ce champ n’est pas attendu.',
  number_invalid: 'Ce nombre n’est pas valide.',
  number_out_of_range: 'Ce nombre est hors des limites permises.',
  email_invalid: 'Adresse e-mail incorrecte',
  email_too_long: 'L’adresse e-mail ne doit pas dépasser 180 caractères.',
  first_name_length: 'Le prénom doit contenir entre 1 et 100 caractères.',
  name_invalid: 'Ce nom n’est pas valide.',
  insee_invalid: 'Le code INSEE doit comporter 5 caractères alphanumériques.',
  ins_invalid: 'Numéro invalide',
  oid_invalid: 'OID invalide',
  phone_invalid: 'Numéro de téléphone incorrect',
  password_rule:
    'Le mot de passe doit contenir au moins 9 caractères (ou 8 avec un caractère spécial), dont 1 chiffre, 1 minuscule et 1 majuscule.',
  password_too_long: 'Le mot de passe ne doit pas dépasser 128 caractères.',
  password_too_common: 'Ce mot de passe est trop courant. Choisissez-en un autre.',
  password_personal_info: 'Le mot de passe ne doit contenir ni votre nom ni votre adresse e-mail.',
  passwords_must_match: 'Les mots de passe ne correspondent pas.',
  birth_date_invalid: 'Date de naissance invalide (JJ/MM/AAAA)',
  identifier_invalid: 'Identifiant invalide',
  code_format: 'Le code doit comporter 6 chiffres.',
  recovery_code_format: 'Un code de secours comporte 12 caractères (lettres et chiffres).',
  cgu_must_be_accepted: 'Vous devez accepter les conditions générales d’utilisation.',
  identifier_taken: 'Cet identifiant est déjà utilisé.',
  identity_locked: 'Identité vérifiée : pour la modifier, contactez le support.',
  address_too_long: 'Ce champ ne doit pas dépasser 100 caractères.',
  postal_code_invalid: 'Code postal invalide (5 chiffres en France).',
  country_invalid: 'Pays inconnu.',
  parent_ins_same: 'Le numéro du parent doit différer du vôtre.',
};

const en: Catalogue = {
  field_required: 'This field is required.',
  field_invalid: 'Invalid value.',
  too_long: 'This text is too long.',
  too_short: 'This text is too short.',
  too_many_items: 'There are too many items.',
  too_few_items: 'There are not enough items.',
  choice_invalid: 'This choice is not offered.',
  unknown_field: 'This field is not expected.',
  number_invalid: 'This number is invalid.',
  number_out_of_range: 'This number is outside the allowed range.',
  email_invalid: 'Incorrect email address',
  email_too_long: 'The email address must not exceed 180 characters.',
  first_name_length: 'The first name must have between 1 and 100 characters.',
  name_invalid: 'This name is invalid.',
  insee_invalid: 'The INSEE code must have 5 letters or digits.',
  ins_invalid: 'Invalid number',
  oid_invalid: 'Invalid OID',
  phone_invalid: 'Incorrect phone number',
  password_rule:
    'The password must have at least 9 characters (or 8 with a special character), including 1 digit, 1 lowercase letter and 1 uppercase letter.',
  password_too_long: 'The password must not exceed 128 characters.',
  password_too_common: 'This password is too common. Choose another one.',
  password_personal_info: 'The password must not contain your name or your email address.',
  passwords_must_match: 'The passwords do not match.',
  birth_date_invalid: 'Invalid birth date (DD/MM/YYYY)',
  identifier_invalid: 'Invalid identifier',
  code_format: 'The code must have 6 digits.',
  recovery_code_format: 'A recovery code has 12 characters (letters and digits).',
  cgu_must_be_accepted: 'You must accept the terms of use.',
  identifier_taken: 'This identifier is already used.',
  identity_locked: 'Verified identity: to change it, contact support.',
  address_too_long: 'This field must not exceed 100 characters.',
  postal_code_invalid: 'Invalid postal code (5 digits in France).',
  country_invalid: 'Unknown country.',
  parent_ins_same: 'The parent’s number must differ from yours.',
};

const ar: Catalogue = {
  field_required: 'هذا الحقل إلزامي.',
  field_invalid: 'قيمة غير صالحة.',
  too_long: 'هذا النص طويل جدًا.',
  too_short: 'هذا النص قصير جدًا.',
  too_many_items: 'عدد العناصر كبير جدًا.',
  too_few_items: 'عدد العناصر غير كافٍ.',
  choice_invalid: 'هذا الاختيار غير متاح.',
  unknown_field: 'هذا الحقل غير متوقَّع.',
  number_invalid: 'هذا الرقم غير صالح.',
  number_out_of_range: 'هذا الرقم خارج الحدود المسموح بها.',
  email_invalid: 'عنوان البريد الإلكتروني غير صحيح',
  email_too_long: 'يجب ألا يتجاوز عنوان البريد الإلكتروني 180 حرفًا.',
  first_name_length: 'يجب أن يتكوّن الاسم الأول من 1 إلى 100 حرف.',
  name_invalid: 'هذا الاسم غير صالح.',
  insee_invalid: 'يجب أن يتكوّن رمز INSEE من 5 أحرف أو أرقام.',
  ins_invalid: 'رقم غير صالح',
  oid_invalid: 'معرّف OID غير صالح',
  phone_invalid: 'رقم الهاتف غير صحيح',
  password_rule:
    'يجب أن تتكوّن كلمة المرور من 9 أحرف على الأقل (أو 8 مع رمز خاص)، منها رقم واحد وحرف صغير واحد وحرف كبير واحد.',
  password_too_long: 'يجب ألا تتجاوز كلمة المرور 128 حرفًا.',
  password_too_common: 'كلمة المرور هذه شائعة جدًا. اختر كلمة مرور أخرى.',
  password_personal_info: 'يجب ألا تحتوي كلمة المرور على اسمك أو عنوان بريدك الإلكتروني.',
  passwords_must_match: 'كلمتا المرور غير متطابقتين.',
  birth_date_invalid: 'تاريخ الميلاد غير صالح (يوم/شهر/سنة)',
  identifier_invalid: 'معرّف غير صالح',
  code_format: 'يجب أن يتكوّن الرمز من 6 أرقام.',
  recovery_code_format: 'يتكوّن رمز الاسترداد من 12 حرفًا (حروف وأرقام).',
  cgu_must_be_accepted: 'يجب عليك قبول الشروط العامة للاستخدام.',
  identifier_taken: 'هذا المعرّف مستخدم بالفعل.',
  identity_locked: 'هوية تم التحقق منها: لتغييرها، تواصل مع الدعم.',
  address_too_long: 'يجب ألا يتجاوز هذا الحقل 100 حرف.',
  postal_code_invalid: 'رمز بريدي غير صالح (5 أرقام في فرنسا).',
  country_invalid: 'بلد غير معروف.',
  parent_ins_same: 'يجب أن يختلف رقم الوالد عن رقمك.',
};

const catalogues: Record<Language, Catalogue> = { fr, en, ar };

/** The words of a validation message key in `language`. */
export function validationText(message: ValidationMessage, language: Language): string {
  return catalogues[language][message];
}
